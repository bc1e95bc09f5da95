package nsysx

import (
	"context"
	"time"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// ErrNotExport is returned (wrapped) by Open for a readable file or directory
// that is not an Nsight Systems export.
var ErrNotExport = model.ErrNotExport

// ErrDamaged is wrapped by the errors of a damaged SQLite export: a page,
// B-tree or record that cannot be what the file says it is.
var ErrDamaged = load.ErrDamaged

// The schema and error types of the model (package model).
type (
	MissingColumnError = model.MissingColumnError
	MissingTableError  = model.MissingTableError
	TableSchema        = model.TableSchema
)

// Open opens an Nsight Systems export: a SQLite export (.sqlite, or
// .sqlite.gz / .sqlite.zst, decompressed once into the cache), a Parquet
// or Arrow directory (`nsys export -t parquetdir|arrowdir`), or a .nsys-rep
// report, which is exported to SQLite with the nsys found on PATH (see
// OpenOptions). The file is never modified.
//
// Open is the convenience for programs and examples: the .nsys-rep export it
// may run cannot be cancelled; OpenWith takes a context.
func Open(path string) (*Profile, error) { return OpenWith(context.Background(), path, OpenOptions{}) }

// OpenOptions tune Open (package load).
type OpenOptions = load.Options

// ErrNoNsys is returned when a .nsys-rep must be exported and no nsys is on
// PATH (package load).
var ErrNoNsys = load.ErrNoNsys

// ExportTimeoutEnv reads $NSYSX_EXPORT_TIMEOUT (package load).
func ExportTimeoutEnv() (time.Duration, error) { return load.ExportTimeoutEnv() }

// Decompressed returns the path of the cached decompressed copy of a
// .sqlite.gz or .sqlite.zst export (package load).
func Decompressed(ctx context.Context, path string) (string, error) {
	return load.Decompressed(ctx, path)
}

// WithLoadParts returns a context under which big table loads may read up
// to n ranges at once (package load).
func WithLoadParts(ctx context.Context, n int) context.Context { return load.WithLoadParts(ctx, n) }

// OpenWith is Open with options; cancelling ctx stops a .nsys-rep export
// (nsys and every process it started are stopped, and nothing is kept) or a
// decompression with ctx.Err().
func OpenWith(ctx context.Context, path string, o OpenOptions) (*Profile, error) {
	if ctx == nil {
		return nil, report.ErrNilContext
	}
	mp, err := load.OpenProfile(ctx, path, o)
	if err != nil {
		return nil, err
	}
	return &Profile{mp}, nil
}

// Profile is an opened Nsight Systems export: the model's profile (package
// model: schema, lazy column loads, names) with the library's reports,
// rules and analyses as methods. A Profile is safe for concurrent use.
type Profile struct {
	*model.Profile
}

func newProfile(path, format string, src model.Source) (*Profile, error) {
	mp, err := model.NewProfile(path, format, src)
	if err != nil {
		return nil, err
	}
	return &Profile{mp}, nil
}
