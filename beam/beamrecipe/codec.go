package beamrecipe

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/recipes"
)

// Everything that crosses a Beam boundary (a DoFn's configuration, an
// element between two stages) is encoded here with encoding/gob, never left
// to Beam's reflection coder: that coder silently zeroes unexported struct
// fields at a shuffle boundary while a fused stage keeps them, so a local
// run could hide the loss. gob sends every exported field and fails loudly
// on a type it cannot send.

func init() {
	// The concrete types a Prepare may hand to Map and Reduce (shared).
	gob.Register(&recipes.Alignment{})
}

// mapped is what the map stage emits for one report: its part (nil when
// the report had no data) or why it failed.
type mapped struct {
	Pos  int
	Path string
	Part *wirePart
	Err  string
}

// EncodePart encodes a part (nil included) for a shuffle.
func EncodePart(p *recipe.Part) ([]byte, error) {
	return encode(mapped{Part: toWire(p)})
}

// DecodePart decodes what EncodePart wrote.
func DecodePart(b []byte) (*recipe.Part, error) {
	var m mapped
	if err := decode(b, &m); err != nil {
		return nil, err
	}
	return fromWire(m.Part), nil
}

// gob drops empty slices and cannot send nil pointers inside maps, while
// the writers tell an empty Valid (a nullable Int64 column without rows)
// from a nil one; the wire types keep both apart.

type wirePart struct {
	Stem          string
	UTC, Duration int64
	Extra         map[string]any
	Names         []string
	Frames        []*wireFrame // nil where the part's frame is nil
}

type wireFrame struct {
	Cols      []*wireCol
	Index     recipe.IndexKind
	IndexCols []string
	RangeName string
}

type wireCol struct {
	C recipe.Column
	// Empty has bit i set when slice i (Ints, Floats, Strs, Lists, Valid,
	// Cats) is empty but not nil.
	Empty uint8
}

func toWire(p *recipe.Part) *wirePart {
	if p == nil {
		return nil
	}
	w := &wirePart{Stem: p.Stem, UTC: p.UTC, Duration: p.Duration, Extra: p.Extra}
	for _, name := range sortedKeys(p.Frames) {
		w.Names = append(w.Names, name)
		w.Frames = append(w.Frames, frameToWire(p.Frames[name]))
	}
	return w
}

func frameToWire(f *recipe.Frame) *wireFrame {
	if f == nil {
		return nil
	}
	w := &wireFrame{Index: f.Index, IndexCols: f.IndexCols, RangeName: f.RangeName}
	for _, c := range f.Cols {
		wc := &wireCol{C: *c}
		for i, empty := range emptiness(c) {
			if empty {
				wc.Empty |= 1 << i
			}
		}
		w.Cols = append(w.Cols, wc)
	}
	return w
}

// emptiness says which of the column's slices are empty but not nil.
func emptiness(c *recipe.Column) [6]bool {
	return [6]bool{
		c.IntVals != nil && len(c.IntVals) == 0, c.FloatVals != nil && len(c.FloatVals) == 0,
		c.Strs != nil && len(c.Strs) == 0, c.Lists != nil && len(c.Lists) == 0,
		c.Valid != nil && len(c.Valid) == 0, c.Cats != nil && len(c.Cats) == 0,
	}
}

func fromWire(w *wirePart) *recipe.Part {
	if w == nil {
		return nil
	}
	p := &recipe.Part{Stem: w.Stem, UTC: w.UTC, Duration: w.Duration, Extra: w.Extra}
	if len(w.Names) > 0 {
		p.Frames = make(map[string]*recipe.Frame, len(w.Names))
	}
	for i, name := range w.Names {
		p.Frames[name] = frameFromWire(w.Frames[i])
	}
	return p
}

func frameFromWire(w *wireFrame) *recipe.Frame {
	if w == nil {
		return nil
	}
	f := &recipe.Frame{Index: w.Index, IndexCols: w.IndexCols, RangeName: w.RangeName}
	for _, wc := range w.Cols {
		c := wc.C
		e := func(i int) bool { return wc.Empty&(1<<i) != 0 }
		if e(0) {
			c.IntVals = []int64{}
		}
		if e(1) {
			c.FloatVals = []float64{}
		}
		if e(2) {
			c.Strs = []string{}
		}
		if e(3) {
			c.Lists = [][]int64{}
		}
		if e(4) {
			c.Valid = []bool{}
		}
		if e(5) {
			c.Cats = []int64{}
		}
		f.Cols = append(f.Cols, &c)
	}
	return f
}

func sortedKeys(m map[string]*recipe.Frame) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// config is the launcher's view of the run that every stage needs: the
// recipe, its options after Prepare, Prepare's shared data, and where and
// when the result is written.
type config struct {
	Recipe  string
	Opts    *recipe.Options
	Shared  any
	WorkDir string // the launcher's working directory: where a relative or default --output goes, what relative inputs are relative to
	Status  string // where the last stage records the outcome
	Start   int64  // the run's start, Unix nanoseconds
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return b.Bytes(), nil
}

func decode(b []byte, v any) error {
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil {
		return fmt.Errorf("decoding %T: %w", v, err)
	}
	return nil
}
