package beamrecipe

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// countFS is a Beam filesystem ("countfs://") held in memory that records,
// for every stream opened on a file, how many bytes were read from it: a
// remote store's transfer.
type countFS struct {
	mu    sync.Mutex
	files map[string][]byte
	reads map[string][]*int64 // bytes read by each stream opened on a file
}

var counted = &countFS{files: map[string][]byte{}, reads: map[string][]*int64{}}

func init() {
	filesystem.Register("countfs", func(context.Context) filesystem.Interface { return counted })
}

func (f *countFS) Close() error { return nil }

func (f *countFS) List(_ context.Context, glob string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for n := range f.files {
		if ok, _ := path.Match(glob, n); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (f *countFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	n := new(int64)
	f.reads[name] = append(f.reads[name], n)
	return io.NopCloser(&countReader{f: f, r: bytes.NewReader(b), n: n}), nil
}

// OpenRange makes countfs a store that serves byte ranges, as gs:// and
// s3:// do.
func (f *countFS) OpenRange(_ context.Context, name string, off, n int64) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	off = min(off, int64(len(b)))
	k := new(int64)
	f.reads[name] = append(f.reads[name], k)
	return io.NopCloser(&countReader{f: f, r: bytes.NewReader(b[off:min(off+n, int64(len(b)))]), n: k}), nil
}

func (f *countFS) OpenWrite(_ context.Context, name string) (io.WriteCloser, error) {
	return &countWriter{f: f, name: name}, nil
}

func (f *countFS) Size(_ context.Context, name string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[name]
	if !ok {
		return 0, os.ErrNotExist
	}
	return int64(len(b)), nil
}

// streams returns the bytes read by each stream opened on name, and forgets
// them.
func (f *countFS) streams(name string) []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for _, n := range f.reads[name] {
		out = append(out, *n)
	}
	delete(f.reads, name)
	return out
}

type countReader struct {
	f *countFS
	r io.Reader
	n *int64
}

func (c *countReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.f.mu.Lock()
	*c.n += int64(k)
	c.f.mu.Unlock()
	return k, err
}

type countWriter struct {
	f    *countFS
	name string
	buf  bytes.Buffer
}

func (w *countWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *countWriter) Close() error {
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	w.f.files[w.name] = bytes.Clone(w.buf.Bytes())
	return nil
}

// putCounted copies local reports into countfs://dir/ and returns their
// remote paths and sizes.
func putCounted(t *testing.T, dir string, ins []string) ([]string, []int64) {
	t.Helper()
	var names []string
	var sizes []int64
	for _, p := range ins {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := "countfs://" + dir + "/" + filepath.Base(p)
		counted.mu.Lock()
		counted.files[n] = b
		counted.mu.Unlock()
		names, sizes = append(names, n), append(sizes, int64(len(b)))
	}
	return names, sizes
}

// TestSessionFactsReadsPages: the launcher reads a remote export's session
// start and duration from the pages it needs, not the whole file, and gets
// the values nsysx reads from the opened report.
func TestSessionFactsReadsPages(t *testing.T) {
	ctx := context.Background()
	ins := testutil.Links(t, "rank0", "rank1", "train", "fixed", "bt", "sync", "cnn")
	names, sizes := putCounted(t, "facts", ins)
	facts := sessionFacts(func(context.Context, string) (*nsysx.Profile, error) {
		t.Fatal("a remote .sqlite is opened whole")
		return nil, nil
	})
	for i, n := range names {
		p, err := nsysx.Open(ins[i])
		if err != nil {
			t.Fatal(err)
		}
		wu, wd, werr := recipe.Session(ctx, p)
		p.Close()
		gu, gd, gerr := facts(ctx, n)
		if werr != nil || gerr != nil || gu != wu || gd != wd {
			t.Fatalf("%s: got %d %d %v, want %d %d %v (nsysx.Open)", n, gu, gd, gerr, wu, wd, werr)
		}
		var read int64
		for _, k := range counted.streams(n) {
			read += k
		}
		if read > sizes[i]/10 {
			t.Errorf("%s: %d of %d bytes read for its session facts", filepath.Base(n), read, sizes[i])
		}
		t.Logf("%s: %d of %d bytes read", filepath.Base(n), read, sizes[i])
	}
}

// TestHeatmapRemoteInputs: a heatmap recipe over remote reports gives the
// pool's output, and each report is read whole once (by its map), not a
// second time by the launcher's Prepare.
func TestHeatmapRemoteInputs(t *testing.T) {
	ins := testutil.Links(t, shared...)
	names, sizes := putCounted(t, "heat", ins)
	for _, n := range names {
		counted.streams(n)
	}
	r, _ := recipe.Lookup("cuda_gpu_time_util_map")
	pdir, err := runPool(t, r, recipeArgs(r, ins), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := runBeam(t, r, recipeArgs(r, []string{"countfs://heat/"}), t.TempDir())
	if out.Err != "" || out.Dir == "" {
		t.Fatalf("Beam: %+v", out)
	}
	compareDirs(t, pdir, out.Dir, "input")
	for i, n := range names {
		whole := 0
		var part int64
		for _, k := range counted.streams(n) {
			if k >= sizes[i] {
				whole++
			} else {
				part += k
			}
		}
		if whole != 1 {
			t.Errorf("%s read whole %d times, want once (its map)", n, whole)
		}
		t.Logf("%s: %d of %d bytes read besides the map's", path.Base(n), part, sizes[i])
	}
}
