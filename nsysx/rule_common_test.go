package nsysx

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goldenProfiles are the profiles with nsys-written goldens in testdata/golden.
var goldenProfiles = []string{"bt", "cnn", "fixed", "rank0", "rank1", "sync", "train"}

// ruleCSV renders a rule result as `nsys analyze -f csv` writes its file:
// header with unit suffixes, bytes in MB, nothing at all for zero rows.
// TODO(format): use format.Write(csv) once nsysx/format lands.
func ruleCSV(r *Result) string {
	if r.Len() == 0 {
		return ""
	}
	q := func(s string) string {
		if strings.Contains(s, ",") {
			return `"` + s + `"`
		}
		return s
	}
	var b strings.Builder
	vis := r.Visible()
	for j, c := range vis {
		l := c.Label()
		switch strings.SplitN(c.Tag(), "_", 2)[0] {
		case "dur", "ts":
			l += " (ns)"
		case "ratio":
			l += " (%)"
		case "mem":
			l += " (MB)"
		}
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString(q(l))
	}
	b.WriteByte('\n')
	for i := 0; i < r.Len(); i++ {
		for j, c := range vis {
			s := c.Text(i)
			if strings.HasPrefix(c.Tag(), "mem") && s != "" {
				if f, err := strconv.ParseFloat(s, 64); err == nil {
					s = fmt.Sprintf("%.3f", f/1e6)
				}
			}
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(q(s))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// goldenSpecs lists the rule goldens of a profile: golden base name -> rule
// spec, including the filter goldens whose options filters.txt records.
func goldenSpecs(t *testing.T, prof string) map[string]string {
	specs := map[string]string{}
	for _, r := range []string{"cuda_api_sync", "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "gpu_gaps", "gpu_time_util"} {
		specs["rule_"+r] = r
	}
	specs["rule_cuda_api_sync_rows_m1"] = "cuda_api_sync:rows=-1"
	specs["rule_gpu_gaps_gap_1"] = "gpu_gaps:gap=1"
	specs["rule_gpu_time_util_threshold_90_chunks_60"] = "gpu_time_util:threshold=90:chunks=60"
	f, err := os.Open(filepath.Join("..", "testdata", "golden", prof, "filters.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, arg, ok := strings.Cut(sc.Text(), ": -r ")
		if ok && strings.HasPrefix(name, "rule_") {
			specs[name] = strings.Trim(arg, "'")
		}
	}
	return specs
}

func readRuleGolden(t *testing.T, prof, name string) string {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "golden", prof, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// diffLines reports the first differing line.
func diffLines(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		g, w := "<none>", "<none>"
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d (of %d/%d):\n got %q\nwant %q", i+1, len(gl), len(wl), g, w)
		}
	}
	return ""
}

// TestRuleGoldenCSV runs every rule golden of every profile and compares the
// CSV data table byte for byte.
func TestRuleGoldenCSV(t *testing.T) {
	for _, prof := range goldenProfiles {
		t.Run(prof, func(t *testing.T) {
			p, err := Open(fixture(t, prof))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			for name, spec := range goldenSpecs(t, prof) {
				t.Run(name, func(t *testing.T) {
					want := readRuleGolden(t, prof, name+".csv")
					r, err := p.Analyze(spec)
					if err != nil {
						t.Fatal(err)
					}
					if r.Skipped != "" {
						t.Fatalf("SKIPPED: %s", r.Skipped)
					}
					if got := ruleCSV(r); got != want {
						t.Errorf("%s %s: %s", prof, spec, diffLines(got, want))
					}
				})
			}
		})
	}
}
