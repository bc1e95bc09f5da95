package nsysx

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenProfiles are the profiles with nsys-written goldens in testdata/golden.
var goldenProfiles = []string{"bt", "cnn", "fixed", "rank0", "rank1", "sync", "train"}

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

// RuleFixture, RuleGoldenSpecs, ReadRuleGolden and DiffLines serve the rule
// golden tests of package nsysx_test (rule_golden_test.go), which render
// through nsysx/format and so cannot live in package nsysx.
var (
	RuleFixture     = fixture
	RuleGoldenSpecs = goldenSpecs
	ReadRuleGolden  = readRuleGolden
	DiffLines       = diffLines
	GoldenProfiles  = goldenProfiles
)

// TryRuleGolden reads a golden that may be absent.
func TryRuleGolden(prof, name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "golden", prof, name))
	return string(b), err == nil
}
