package report

import (
	"context"
	"errors"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// noStrings is events.NamesMissing for p: the SKIPPED message when StringIds
// is absent or holds no names, "" otherwise, and when it cannot be read
// (StringsErr says why).
func noStrings(ctx context.Context, p *model.Profile) string {
	n := -1
	if p.HasTable(events.TableStringIds) {
		if m, err, done := p.LoadedStrings(); done {
			if err == nil {
				n = len(m)
			}
		} else if has, ok, err := firstRow(ctx, p, events.TableStringIds); ok {
			if err == nil && !has {
				n = 0
			}
		} else if m, err := p.Strings(ctx); err == nil {
			n = len(m)
		}
	}
	return events.NamesMissing(p.Path, p.HasTable(events.TableStringIds), n)
}

// errFirstRow stops firstRow's scan at its first row.
var errFirstRow = errors.New("first row")

// firstRow reports whether table holds a row, reading the SQLite export only
// up to its first record (a report that needs no names must not pay for
// reading every name to learn that there are some). ok is false, and nothing
// is read, when the profile is not a SQLite export or lacks the table.
func firstRow(ctx context.Context, p *model.Profile, table string) (has, ok bool, err error) {
	ts := p.Schema(table)
	if ts == nil || len(ts.Columns) == 0 {
		return false, false, nil
	}
	d, isSQLite := DirectOf(p, ts.Name, load.ReleaseEvery)
	if !isSQLite || !d.Has {
		return false, false, nil
	}
	err = d.Run(ctx, ts.Columns[:1], func(int64, *model.Fields) error {
		has = true
		return errFirstRow
	})
	if errors.Is(err, errFirstRow) {
		err = nil
	}
	return has, true, err
}
