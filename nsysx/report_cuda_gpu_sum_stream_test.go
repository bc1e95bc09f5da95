package nsysx

import (
	"context"
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
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
			r, err := p.Run(context.Background(), "cuda_api_gpu_sum", nil)
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
