package recipe

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// SessionAt is Session for a SQLite export of size bytes read through r,
// fetching only the pages it touches: the file header, the schema and the
// two one-row tables (a launcher reading a remote report's session start
// without downloading it). Like Session, an export lacking either table is
// ErrOutdated.
func SessionAt(ctx context.Context, r io.ReaderAt, size int64) (utc, dur int64, err error) {
	db, err := sqlite.OpenReaderAt(r, size)
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	if utc, err = firstInt(ctx, db, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs"); err != nil {
		return 0, 0, err
	}
	if dur, err = firstInt(ctx, db, "ANALYSIS_DETAILS", "duration"); err != nil {
		return 0, 0, err
	}
	return utc, dur, nil
}

// firstInt reads column col of table's first row.
func firstInt(ctx context.Context, db *sqlite.DB, table, col string) (int64, error) {
	t := db.Table(table)
	if t == nil {
		return 0, ErrOutdated
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var v sqlite.Value
	found := false
	err := db.Scan(t, []string{col}, func(_ int64, vals []sqlite.Value) error {
		v, found = vals[0], true
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return 0, err
	}
	switch {
	case !found:
		return 0, ErrOutdated
	case v.Type != sqlite.Integer:
		return 0, fmt.Errorf("%s.%s is not an integer", table, col)
	}
	return v.I, nil
}

var errStop = errors.New("stop")
