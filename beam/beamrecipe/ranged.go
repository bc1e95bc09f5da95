package beamrecipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// sessionFacts is the launcher's recipe.Report.SessionFacts. A remote
// SQLite export on a store that serves byte ranges (gs://, s3://, or a
// filesystem implementing rangeOpener) is read through a rangeReaderAt:
// recipe.SessionAt fetches the header, the schema's pages and the pages of
// the two one-row tables, not the file. Beam's filesystem interface opens
// whole files only, and nsys writes those tables near the end of the file,
// so skipping forward in a stream would transfer nearly all of it: any
// other report (local, a .nsys-rep that must be exported first, another
// remote store) is opened with open, as a worker opens it.
func sessionFacts(open recipe.Opener) func(ctx context.Context, p string) (int64, int64, error) {
	return func(ctx context.Context, p string) (int64, int64, error) {
		ra, size, err := openRanged(ctx, p)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", p, err)
		}
		if ra == nil {
			prof, err := open(ctx, p)
			if err != nil {
				return 0, 0, err
			}
			defer prof.Close()
			return recipe.Session(ctx, prof)
		}
		utc, dur, err := recipe.SessionAt(ctx, ra, size)
		ra.close()
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", p, err)
		}
		return utc, dur, nil
	}
}

// rangeOpener is a filesystem that opens n bytes of a file from off.
type rangeOpener interface {
	OpenRange(ctx context.Context, name string, off, n int64) (io.ReadCloser, error)
}

// openRanged returns a reader of p's byte ranges and p's size, or a nil
// reader when p is no remote SQLite export or its store serves no ranges.
func openRanged(ctx context.Context, p string) (*rangeReaderAt, int64, error) {
	if !IsRemote(p) || !strings.HasSuffix(strings.ToLower(p), ".sqlite") {
		return nil, 0, nil
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	defer fs.Close()
	var open func(off, n int64) (io.ReadCloser, error)
	closeClient := func() error { return nil }
	scheme, rest, _ := strings.Cut(p, "://")
	bucket, key, _ := strings.Cut(rest, "/")
	switch ro, ok := fs.(rangeOpener); {
	case ok:
		open = func(off, n int64) (io.ReadCloser, error) { return ro.OpenRange(ctx, p, off, n) }
	case scheme == "gs": // the client Beam's gcs filesystem makes
		c, err := storage.NewClient(ctx)
		if err != nil {
			return nil, 0, err
		}
		closeClient = c.Close
		obj := c.Bucket(bucket).Object(key)
		open = func(off, n int64) (io.ReadCloser, error) { return obj.NewRangeReader(ctx, off, n) }
	case scheme == "s3": // the client Beam's s3 filesystem makes
		cfg, err := awsconfig.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, 0, err
		}
		c := s3.NewFromConfig(cfg)
		open = func(off, n int64) (io.ReadCloser, error) {
			out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key),
				Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))})
			if err != nil {
				return nil, err
			}
			return out.Body, nil
		}
	default:
		return nil, 0, nil
	}
	size, err := fs.Size(ctx, p)
	if err != nil {
		closeClient()
		return nil, 0, err
	}
	return &rangeReaderAt{open: open, close: closeClient}, size, nil
}

// rangeReaderAt is an io.ReaderAt that fetches each read's range (the
// SQLite reader reads a page at a time and keeps the pages).
type rangeReaderAt struct {
	open  func(off, n int64) (io.ReadCloser, error)
	close func() error // the store's client
}

func (r *rangeReaderAt) ReadAt(p []byte, off int64) (int, error) {
	rc, err := r.open(off, int64(len(p)))
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n, err := io.ReadFull(rc, p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}
