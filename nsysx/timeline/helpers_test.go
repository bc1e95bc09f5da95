package timeline

import (
	"strconv"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// profile is the test binary's one open Profile of a test profile.
func profile(t testing.TB, name string) *nsysx.Profile {
	t.Helper()
	return nsysxtest.Shared(t, name, name)
}

// newView is NewView of p, failing the test on an error.
func newView(t *testing.T, p *nsysx.Profile, o *ViewOptions) *View {
	t.Helper()
	v, err := NewView(t.Context(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// goldenSum adds up one column of an nsys golden CSV.
func goldenSum(t *testing.T, prof, name, col string) (sum, rows int) {
	t.Helper()
	recs := testutil.GoldenCSV(t, prof, name)
	if len(recs) == 0 {
		t.Fatalf("golden %s/%s is empty", prof, name)
	}
	ci := -1
	for i, h := range recs[0] {
		if h == col {
			ci = i
		}
	}
	for _, r := range recs[1:] {
		if ci >= 0 {
			n, _ := strconv.Atoi(r[ci])
			sum += n
		}
	}
	return sum, len(recs) - 1
}
