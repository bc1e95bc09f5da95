package recipes

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// rawNVTX groups the NVTX ranges of a profile the way nvtx_sum should see
// them, computed here from the raw table: text = StringIds(textId) when it
// resolves, else the inline text; rows with a NULL end or a negative start
// out; positive durations grouped, zero-length ones counted.
func rawNVTX(t *testing.T, p *nsysx.Profile) (groups map[string][]float64, zero map[string]int) {
	t.Helper()
	tb, err := p.Load(context.Background(), "NVTX_EVENTS", "start", "end", "text", "textId")
	if err != nil {
		t.Fatal(err)
	}
	groups, zero = map[string][]float64{}, map[string]int{}
	for i := 0; i < tb.N; i++ {
		if tb.Col("end").IsNull(i) || tb.Col("start").Int(i) < 0 {
			continue
		}
		text, ok := "", false
		if !tb.Col("textId").IsNull(i) {
			text, ok = p.String(context.Background(), tb.Col("textId").Int(i))
		}
		if !ok {
			if tb.Col("text").IsNull(i) {
				continue
			}
			text = tb.Col("text").Str(i)
		}
		if d := tb.Col("end").Int(i) - tb.Col("start").Int(i); d > 0 {
			groups[text] = append(groups[text], float64(d))
		} else {
			zero[text]++
		}
	}
	return groups, zero
}

// TestNVTXSum checks nvtx_sum on train+fixed against the raw NVTX rows and
// train's `nsys stats -r nvtx_sum` (whose Range is "domain:text"), and the
// float64 Min/Max/Sum nsys writes when NVTX end has NULLs.
func TestNVTXSum(t *testing.T) {
	res := runOn(t, "nvtx_sum", nil, "train", "fixed")
	f := res.Output.Table("rank_stats")
	for _, c := range []string{"Min", "Max", "Sum"} {
		if f.Find(c).Type != pyframe.Float64 {
			t.Errorf("%s is %v, want float64 (NVTX end has NULLs)", c, f.Find(c).Type)
		}
	}
	if got := f.IndexCols; len(got) != 1 || got[0] != "Text" {
		t.Errorf("index %v", got)
	}
	for rank, prof := range []string{"fixed", "train"} {
		groups, _ := rawNVTX(t, openProfile(t, prof))
		checkRank(t, "nvtx_sum", f, int64(rank), "Text", groups)
	}
	_, zero := rawNVTX(t, openProfile(t, "train"))
	rows := statsGolden(t, "train", "nvtx_sum")
	for _, r := range rows {
		r["Range"] = r["Range"][strings.IndexByte(r["Range"], ':')+1:]
	}
	same := func(s string) string { return s }
	checkStatsGolden(t, rows, sumsBy(f, 1, "Text", same), "Range", "Instances", zero)
	checkAllStats(t, res)
}
