package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Session is a profile's place on the wall clock: when its capture started
// (TARGET_INFO_SESSION_START_TIME.utcEpochNs) and how long it lasted
// (ANALYSIS_DETAILS.duration). The recipes align several reports by it.
type Session struct {
	UTC      int64 // ns since the Unix epoch
	Duration int64 // ns
	OK       bool  // both known
}

// SessionOf reads p's session: not OK when a table, a column or a value is
// absent; the load's error (naming the table) when a table cannot be read.
func SessionOf(ctx context.Context, p *model.Profile) (Session, error) {
	var s Session
	if !p.HasColumn(TableTargetInfoSessionStartTime, "utcEpochNs") || !p.HasColumn(TableAnalysisDetails, "duration") {
		return s, nil
	}
	a, err := p.Load(ctx, TableTargetInfoSessionStartTime, "utcEpochNs")
	if err != nil {
		return s, err
	}
	b, err := p.Load(ctx, TableAnalysisDetails, "duration")
	if err != nil || a.N == 0 || b.N == 0 || a.Col("utcEpochNs").IsNull(0) || b.Col("duration").IsNull(0) {
		return s, err
	}
	return Session{UTC: a.Col("utcEpochNs").Int(0), Duration: b.Col("duration").Int(0), OK: true}, nil
}
