package stats

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/report"
)

// The streamed runtime calls of cuda_api_gpu_sum (streamAPICalls) give the
// rows the loaded table gives: a profile whose runtime columns are loaded
// before the report takes the load path.
func TestStreamAPICallsMatchesLoad(t *testing.T) {
	for _, name := range []string{"train", "bt", "sync"} {
		path := testutil.Profile(t, name)
		rows := func(preload bool) [][]Value {
			p, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if preload && p.HasTable(tRuntime) {
				if _, err := p.Load(context.Background(), tRuntime, "start", "end", "nameId"); err != nil {
					t.Fatal(err)
				}
			}
			r, err := report.Run(context.Background(), p, "cuda_api_gpu_sum", nil)
			if err != nil {
				t.Fatal(err)
			}
			var out [][]Value
			for i := 0; i < r.Len(); i++ {
				out = append(out, r.Row(i))
			}
			return out
		}
		streamed, loaded := rows(false), rows(true)
		if len(loaded) == 0 || !reflect.DeepEqual(streamed, loaded) {
			t.Errorf("%s: streamed %d rows, loaded %d, or they differ", name, len(streamed), len(loaded))
		}
	}
}

// The scan does not apply to a sample set that is not empty, nor once a
// column it reads is loaded (the load path reuses it).
func TestStreamAPICallsGivesUp(t *testing.T) {
	p, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &Ctx{Context: context.Background(), P: p}
	ns := newNamedSamples()
	if !ns.streamAPICalls(c) || len(ns.keys) == 0 {
		t.Fatal("train: the runtime calls were not streamed")
	}
	if ns.streamAPICalls(c) {
		t.Error("streamed into a sample set that is not empty")
	}
	if _, err := p.Load(context.Background(), tRuntime, "end"); err != nil {
		t.Fatal(err)
	}
	if ns2 := newNamedSamples(); ns2.streamAPICalls(c) || len(ns2.keys) != 0 {
		t.Error("streamed although the table's end column is loaded")
	}
}

// TestStreamAPICallsRangesMatchAddAPICalls: read in up to four ranges of a
// leaf page or more each, the streamed runtime calls give the groups of
// addAPICalls over the loaded table, in the same order, each with the same
// values in the same order (the standard deviation's last bits depend on
// it) and the same NULLs. The profiles' calls of one name under several
// nameIds (versioned names) make groups fed from several ids in one range.
func TestStreamAPICallsRangesMatchAddAPICalls(t *testing.T) {
	defer func(l, procs int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(procs) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	for _, name := range []string{"train", "bt", "sync"} {
		p, err := Open(testutil.Profile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		c := &Ctx{Context: WithCores(context.Background(), 4), P: p}
		streamed := newNamedSamples()
		if !streamed.streamAPICalls(c) {
			t.Fatalf("%s: the runtime calls were not streamed", name)
		}
		tb, err := p.Load(context.Background(), tRuntime, "start", "end", "nameId")
		if err != nil {
			t.Fatal(err)
		}
		loaded := newNamedSamples()
		loaded.addAPICalls(c, tb)
		if len(loaded.keys) == 0 || !reflect.DeepEqual(streamed.keys, loaded.keys) {
			t.Fatalf("%s: groups %v streamed, %v loaded", name, streamed.keys, loaded.keys)
		}
		for _, k := range loaded.keys {
			s, l := streamed.groups[k], loaded.groups[k]
			if !slices.Equal(s.vals, l.vals) || s.nulls != l.nulls || streamed.cat[k] != loaded.cat[k] {
				t.Errorf("%s %v: %d values and %d NULLs streamed, %d and %d loaded, or their order differs", name, k, len(s.vals), s.nulls, len(l.vals), l.nulls)
			}
		}
		p.Close()
	}
}
