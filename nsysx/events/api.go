package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// APICall is one CUDA API call (runtime or driver) of the trace: when it
// ran, on which thread, its name (a StringIds id) and its correlation id,
// which the GPU operations it launched carry.
type APICall struct {
	Start, End  int64
	Thread      model.GlobalTid
	Correlation int64 // 0 when unknown
	Name        int64 // StringIds id; -1 when unknown
}

// APICalls reads the CUDA API calls of p in table order (rows with a NULL
// start or end are left out); a profile traced without CUDA has none.
func APICalls(ctx context.Context, p *model.Profile) ([]APICall, error) {
	var out []APICall
	cols := []string{"start", "end", "globalTid", "correlationId", "nameId"}
	err := eachRow(ctx, p, TableRuntime, cols, func(f *model.Fields) error {
		if isNull(f, 0) || isNull(f, 1) {
			return nil
		}
		out = append(out, APICall{Start: f.I[0], End: f.I[1], Thread: model.GlobalTid(intOr(f, 2, 0)),
			Correlation: intOr(f, 3, 0), Name: intOr(f, 4, -1)})
		return nil
	})
	return out, err
}
