package beamrecipe

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// TestPartsRoundTrip maps every recipe over the shared reports (and bt,
// sync) and checks that each part comes back from EncodePart/DecodePart
// identical, field by field: every frame, column, slice (nil and empty
// told apart) and float bit pattern (NaN included).
func TestPartsRoundTrip(t *testing.T) {
	ctx := context.Background()
	ins := testutil.Links(t, append([]string{"bt", "sync"}, shared...)...)
	for _, r := range recipe.List() {
		if r.Map == nil {
			continue // diff reads output directories, it has no parts
		}
		t.Run(r.Name, func(t *testing.T) {
			o, err := recipe.ParseArgs(r, recipeArgs(r, ins))
			if err != nil {
				t.Fatal(err)
			}
			reps := recipe.NewReports(o, nil)
			sh, err := recipe.PrepareReports(ctx, r, o, reps)
			if err != nil {
				t.Fatal(err)
			}
			checkConfig(t, &config{Recipe: r.Name, Opts: o, Shared: sh})
			n := 0
			for _, rep := range reps {
				p, err := recipe.MapReport(ctx, r, o, rep, nil, sh)
				if err != nil {
					t.Fatalf("%s: %v", rep.Path, err)
				}
				if p != nil {
					n++
				}
				samePart(t, rep.Stem, p, roundTrip(t, p))
			}
			if n == 0 && !strings.HasPrefix(r.Name, "mpi_") { // no test report has MPI data
				t.Errorf("no report gave a part")
			}
		})
	}
}

// checkConfig: the options after Prepare and Prepare's shared data come
// back from the DoFn configuration as they were.
func checkConfig(t *testing.T, c *config) {
	t.Helper()
	b, err := encode(c)
	if err != nil {
		t.Fatal(err)
	}
	var d config
	if err := decode(b, &d); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, &d) {
		t.Errorf("config changed on the way:\n sent %+v\n  got %+v", c, &d)
	}
}

// roundTrip is the part encoded and decoded again.
func roundTrip(t *testing.T, p *recipe.Part) *recipe.Part {
	t.Helper()
	b, err := EncodePart(p)
	var q *recipe.Part
	if err == nil {
		q, err = DecodePart(b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// bothNil fails the test when only one of sent and got is nil, and
// reports whether both are (then there is nothing more to compare).
func bothNil[T any](t *testing.T, what string, sent, got *T) bool {
	t.Helper()
	if (sent == nil) != (got == nil) {
		t.Fatalf("%s: nil %v, decoded nil %v", what, sent == nil, got == nil)
	}
	return sent == nil
}

func samePart(t *testing.T, stem string, p, q *recipe.Part) {
	t.Helper()
	if bothNil(t, stem+": part", p, q) {
		return
	}
	if p.Stem != q.Stem || p.UTC != q.UTC || p.Duration != q.Duration || !reflect.DeepEqual(p.Extra, q.Extra) {
		t.Errorf("%s: header %q %d %d %v, decoded %q %d %d %v", stem, p.Stem, p.UTC, p.Duration, p.Extra, q.Stem, q.UTC, q.Duration, q.Extra)
	}
	if len(p.Frames) != len(q.Frames) {
		t.Fatalf("%s: %d frames, decoded %d", stem, len(p.Frames), len(q.Frames))
	}
	for name, f := range p.Frames {
		g, ok := q.Frames[name]
		if !ok {
			t.Fatalf("%s: frame %s lost", stem, name)
		}
		sameFrame(t, stem+"/"+name, f, g)
	}
}

func sameFrame(t *testing.T, what string, f, g *recipe.Frame) {
	t.Helper()
	if bothNil(t, what, f, g) {
		return
	}
	if f.Index != g.Index || !reflect.DeepEqual(f.IndexCols, g.IndexCols) || f.RangeName != g.RangeName || len(f.Cols) != len(g.Cols) {
		t.Fatalf("%s: index or columns differ", what)
	}
	for i, c := range f.Cols {
		d := g.Cols[i]
		same := c.Name == d.Name && c.Type == d.Type && sameFloats(c.FloatVals, d.FloatVals)
		for _, pair := range [][2]any{{c.IntVals, d.IntVals}, {c.Strs, d.Strs}, {c.Lists, d.Lists}, {c.Valid, d.Valid}, {c.Cats, d.Cats}} {
			same = same && reflect.DeepEqual(pair[0], pair[1])
		}
		if !same {
			t.Errorf("%s: column %d (%s) differs after the round trip", what, i, c.Name)
		}
	}
}

func sameFloats(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
