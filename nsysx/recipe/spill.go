package recipe

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// Spilled parts (docs/performance.md, "Recipe nvtx_sum on a million
// distinct texts"): with Options.SpillParts, the runner writes the "stats"
// frame of a recipe with Recipe.SpillStats to a temporary file as soon as
// its map finishes, so that the parts held at once are those of the maps in
// flight, not one per input. The reduce then reads the files back in
// chunks: rank_stats as a stream of row groups written straight to the
// output, all_stats as a merge of the parts (each sorted by its key).
//
// The file is encoding/gob's stream of column chunks of spillChunk rows:
// the standard library's encoding, bit-exact for floats, and fast enough
// that the spill costs a small part of the map (the format lives only as
// long as the run, so it needs no versioning). The file is removed as soon
// as it is created (it stays readable through its open descriptor), so a
// killed process leaves nothing behind; where the system refuses that, it
// is removed when closed.

// spillChunk is the rows of a spilled chunk: small enough that a merge of
// many parts holds little (a chunk of each), large enough that gob's
// per-chunk cost is small.
var spillChunk = 8 << 10

// spillFile is one part's frame on disk.
type spillFile struct {
	f    *os.File
	name string // removed on close; "" when it was removed at once
	head *pyframe.Frame
	rows int
}

// spillFrame writes f to a new temporary file under dir (os.TempDir when
// "").
func spillFrame(dir string, f *pyframe.Frame) (_ *spillFile, err error) {
	file, err := os.CreateTemp(dir, "nsysx-part-*.spill")
	if err != nil {
		return nil, fmt.Errorf("spilling a part: %w", err)
	}
	s := &spillFile{f: file, head: emptyLike(f), rows: f.Rows()}
	if os.Remove(file.Name()) != nil {
		s.name = file.Name()
	}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	bw := bufio.NewWriterSize(file, 1<<16)
	enc := gob.NewEncoder(bw)
	for lo := 0; lo < s.rows; lo += spillChunk {
		if err := enc.Encode(sliceCols(f.Cols, lo, min(lo+spillChunk, s.rows))); err != nil {
			return nil, fmt.Errorf("spilling a part: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("spilling a part: %w", err)
	}
	return s, nil
}

// close closes (and, where it was not removed at once, removes) the file.
func (s *spillFile) close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	s.f = nil
	return err
}

// chunkReader yields a frame's rows in chunks, in order; next returns
// io.EOF after the last.
type chunkReader interface {
	next() (*pyframe.Frame, error)
}

// spillReader reads a spilled frame from its start; several may read one
// file at once.
type spillReader struct {
	s   *spillFile
	dec *gob.Decoder
}

func (s *spillFile) reader() chunkReader {
	return &spillReader{s: s, dec: gob.NewDecoder(bufio.NewReaderSize(io.NewSectionReader(s.f, 0, 1<<62), 1<<16))}
}

func (r *spillReader) next() (*pyframe.Frame, error) {
	var cols []*pyframe.Column
	if err := r.dec.Decode(&cols); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading a spilled part: %w", err)
	}
	h := r.s.head
	for i, c := range cols { // gob keeps no empty slice: the head's kinds and names
		c.Name, c.Type, c.Cats = h.Cols[i].Name, h.Cols[i].Type, h.Cols[i].Cats
	}
	return &pyframe.Frame{Cols: cols, Index: h.Index, IndexCols: h.IndexCols, RangeName: h.RangeName}, nil
}

// frameReader yields an in-memory frame as chunks of spillChunk rows.
type frameReader struct {
	f  *pyframe.Frame
	lo int
}

func (r *frameReader) next() (*pyframe.Frame, error) {
	n := r.f.Rows()
	if r.lo >= n {
		return nil, io.EOF
	}
	hi := min(r.lo+spillChunk, n)
	g := &pyframe.Frame{Cols: sliceCols(r.f.Cols, r.lo, hi), Index: r.f.Index, IndexCols: r.f.IndexCols, RangeName: r.f.RangeName}
	r.lo = hi
	return g, nil
}

// emptyLike is f with no rows: its columns' names, kinds and categories,
// Valid set (empty) where f's is, and its index.
func emptyLike(f *pyframe.Frame) *pyframe.Frame {
	out := &pyframe.Frame{Index: f.Index, IndexCols: f.IndexCols, RangeName: f.RangeName}
	for _, c := range f.Cols {
		e := &pyframe.Column{Name: c.Name, Type: c.Type, Cats: c.Cats}
		if c.Valid != nil {
			e.Valid = []bool{}
		}
		out.Cols = append(out.Cols, e)
	}
	return out
}

// sliceCols are rows [lo, hi) of cols, sharing their storage.
func sliceCols(cols []*pyframe.Column, lo, hi int) []*pyframe.Column {
	out := make([]*pyframe.Column, len(cols))
	for i, c := range cols {
		s := &pyframe.Column{Name: c.Name, Type: c.Type, Cats: c.Cats}
		switch c.Type {
		case pyframe.Float64:
			s.FloatVals = c.FloatVals[lo:hi:hi]
		case pyframe.String:
			s.Strs = c.Strs[lo:hi:hi]
		case pyframe.ListInt64:
			s.Lists = c.Lists[lo:hi:hi]
		case pyframe.Null:
		default:
			s.IntVals = c.IntVals[lo:hi:hi]
		}
		if c.Valid != nil {
			s.Valid = c.Valid[lo:hi:hi]
		}
		out[i] = s
	}
	return out
}

// spillParts holds the spilled files of a run until its output is written.
type spillSet struct {
	mu    sync.Mutex
	files []*spillFile
}

func (s *spillSet) add(f *spillFile) {
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
}

// close closes every file; the first error is returned.
func (s *spillSet) close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for _, f := range s.files {
		if err := f.close(); err != nil && first == nil {
			first = err
		}
	}
	s.files = nil
	return first
}

// spillPart writes p's stats frame to a temporary file (into set) and drops
// it from p, when the frame is one the streaming reduce takes
// (streamable); other parts are kept as they are.
func spillPart(dir string, p *Part, set *spillSet) error {
	f := p.Frames[FrameStats]
	if f == nil || !streamable(f) {
		return nil
	}
	s, err := spillFrame(dir, f)
	if err != nil {
		return err
	}
	set.add(s)
	p.spilled = s
	delete(p.Frames, FrameStats)
	if spillHook != nil {
		spillHook(p)
	}
	return nil
}

// spillHook, when set (by tests), is called with each part as it is
// spilled.
var spillHook func(*Part)

// streamable reports whether the streaming reduce (statsStream) takes a
// describe frame: a single String key without NULLs as its named index,
// the keys of its rows increasing (as Describe leaves them), so that the
// parts merge by key as Aggregate groups them.
func streamable(f *pyframe.Frame) bool {
	if f.Index != pyframe.NamedIndex || len(f.IndexCols) != 1 {
		return false
	}
	k := f.Find(f.IndexCols[0])
	if k == nil || k.Type != pyframe.String || k.Valid != nil {
		return false
	}
	for i := 1; i < len(k.Strs); i++ {
		if k.Strs[i-1] >= k.Strs[i] {
			return false
		}
	}
	for _, name := range pyframe.StatNames {
		if c := f.Find(name); c == nil || c.Valid != nil && name == "Count" {
			return false
		}
	}
	return true
}
