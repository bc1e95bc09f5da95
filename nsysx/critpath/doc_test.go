package critpath

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestDocTables computes the replay error and what-if tables of README.md
// and docs/critical-path.md and checks every figure printed there.
func TestDocTables(t *testing.T) {
	want := map[string]bool{}
	for _, name := range profiles {
		r, err := Analyze(context.Background(), open(t, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[fmt.Sprintf("| %s | %d | %.2f | %.2f |", name, len(r.Iterations), r.MeanAbsError, r.MaxAbsError)] = true
	}
	before := open(t, "whatif/before")
	for _, c := range []struct{ after, flag, spec, shown string }{
		{"whatif/half_gemm", "--rows 4096", "kernels:nvjet|gemm=0.5", `kernels:nvjet\|gemm=0.5`},
		{"whatif/no_sleep", "--sleep 0", "host:^data$=0", "host:^data$=0"},
		{"whatif/no_item", "--item 0", "sync=drop", "sync=drop"},
	} {
		pr, ar := predict(t, before, c.after, c.spec)
		ps, as := meanStep(pr, true), meanStep(ar, false)
		row := fmt.Sprintf("| %s (`%s`) | `%s` | %.2f ms | %.2f ms | %+.1f %% | %.1f ms | %.1f ms | %+.1f %% |",
			strings.TrimPrefix(c.after, "whatif/"), c.flag, c.shown, ps/1e6, as/1e6, 100*(ps-as)/as,
			float64(pr.Span.Predicted)/1e6, float64(ar.Span.Observed)/1e6, pct(pr.Span.Predicted, ar.Span.Observed))
		want[row] = true
	}
	for _, doc := range []string{"README.md", filepath.Join("docs", "critical-path.md")} {
		b, err := os.ReadFile(filepath.Join(testutil.Root(), doc))
		if err != nil {
			t.Fatal(err)
		}
		for row := range want {
			if !strings.Contains(string(b), row+"\n") {
				t.Errorf("%s lacks the computed row\n%s", doc, row)
			}
		}
	}
}
