package nsysx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// TestLoadPartsSameResults: with every load cut into ranges of one leaf or
// more, the reports and rules that load the big tables give the results
// of one-core loads, on every test profile.
func TestLoadPartsSameResults(t *testing.T) {
	reports := []string{"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_trace", "cuda_kern_exec_trace",
		"cuda_api_gpu_sum", "nvtx_kern_sum", "cuda_api_sync", "cuda_memcpy_async", "gpu_gaps", "gpu_time_util"}
	run := func(prof string, parts int) []string {
		defer func(m, r, l int) { loadPartsMax, loadPartsRows, sqlite.MinPartLeaves = m, r, l }(loadPartsMax, loadPartsRows, sqlite.MinPartLeaves)
		loadPartsMax, loadPartsRows, sqlite.MinPartLeaves = parts, 0, 1
		p, err := Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var out []string
		for _, rep := range reports {
			r, err := p.Run(t.Context(), rep, nil)
			var s strings.Builder
			s.WriteString(fmt.Sprint(err))
			if r != nil {
				s.WriteString(r.Skipped)
				for _, c := range r.Cols {
					s.WriteString("|" + c.Label())
					for i := range c.Len() {
						s.WriteString("," + c.Text(i))
					}
				}
			}
			out = append(out, s.String())
		}
		return out
	}
	for _, prof := range testutil.Profiles {
		one, four := run(prof, 1), run(prof, 4)
		for i := range one {
			if one[i] != four[i] {
				t.Errorf("%s %s: a load in ranges differs from a one-core load", prof, reports[i])
			}
		}
	}
}
