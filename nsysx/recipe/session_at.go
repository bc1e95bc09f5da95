package recipe

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// SessionAt is Session for a SQLite export of size bytes read through r,
// fetching only the pages it touches: the file header, the schema and the
// two one-row tables (a launcher reading a remote report's session start
// without downloading it). Like Session, an export lacking either table is
// ErrOutdated.
func SessionAt(ctx context.Context, r io.ReaderAt, size int64) (utc, dur int64, err error) {
	src, err := load.OpenReaderAt(r, size)
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	db := src.(model.RecordScanner)
	if utc, err = firstInt(ctx, db, events.TableTargetInfoSessionStartTime, "utcEpochNs"); err != nil {
		return 0, 0, err
	}
	if dur, err = firstInt(ctx, db, events.TableAnalysisDetails, "duration"); err != nil {
		return 0, 0, err
	}
	return utc, dur, nil
}

// firstInt reads column col of table's first row.
func firstInt(ctx context.Context, db model.RecordScanner, table, col string) (int64, error) {
	if !db.HasRecords(table) {
		return 0, ErrOutdated
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var v model.RecValue
	found := false
	err := db.ScanValues(ctx, table, []string{col}, func(_ int64, vals []model.RecValue) error {
		v, found = vals[0], true
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return 0, err
	}
	switch {
	case !found:
		return 0, ErrOutdated
	case v.Type != model.RecInteger:
		return 0, fmt.Errorf("%s.%s is not an integer", table, col)
	}
	return v.I, nil
}

var errStop = errors.New("stop")
