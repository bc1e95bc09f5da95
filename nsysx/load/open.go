package load

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Options tune Open.
type Options struct {
	// ForceExport re-exports a .nsys-rep even when a fresh export exists.
	ForceExport bool
	// Progress, when set, receives messages about long steps (exporting).
	Progress func(msg string)
	// ExportTimeout stops `nsys export` of a .nsys-rep after this long;
	// 0 takes $NSYSX_EXPORT_TIMEOUT (a Go duration such as 30m), and
	// without it there is no limit.
	ExportTimeout time.Duration
}

// Open opens an export for reading: a SQLite export (.sqlite, or .sqlite.gz
// / .sqlite.zst, decompressed once into the cache), a Parquet or Arrow
// directory, one .arrows file, or a .nsys-rep exported to SQLite with the
// nsys found on PATH. format is "sqlite", "parquetdir", "arrowdir" or
// "arrow". Cancelling ctx stops an export or a decompression.
func Open(ctx context.Context, path string, o Options) (src model.Source, format string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("%s: no such file or directory", path)
		}
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return nil, "", notRegular(path, st.Mode())
	}
	format = "sqlite"
	switch {
	case st.IsDir():
		if src, format, err = openDir(path); err == nil {
			err = needStringIds(src)
		}
	case strings.HasSuffix(strings.ToLower(path), ".nsys-rep") || strings.HasSuffix(strings.ToLower(path), ".qdrep"):
		var db string
		db, err = exportReport(ctx, path, o)
		if err == nil {
			src, err = openSQLite(db)
		}
	case CompressedExt(path) != "":
		var db string
		if db, err = decompressed(ctx, path, o); err == nil {
			src, err = openSQLite(db)
		}
	case isArrowFile(path):
		src, format, err = openArrowFile(path)
	default:
		src, err = openSQLite(path)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return src, format, nil
}

// needStringIds refuses a table directory without StringIds: every
// export has it, so a directory lacking it is an export cut short (or one
// made with --tables leaving it out), whose reports would print numbers
// for names.
func needStringIds(src source) error {
	for _, t := range src.Schema() {
		if lower(t.Name) == "stringids" {
			return nil
		}
	}
	src.Close()
	return fmt.Errorf("%w: no StringIds table, so not a complete export (an interrupted export, or --tables leaving StringIds out): export it again", ErrNotExport)
}

// notRegular is the error for a profile that is a named pipe, a device or
// a socket: reading one could block forever or never end.
func notRegular(path string, m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s: %w: it is %s; give the export's file (copy the data to a file first)", path, ErrNotExport, what)
}
