package recipes

import (
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// goldenCSV reads testdata/golden/<profile>/<name>.csv (an `nsys stats` or
// `nsys analyze` output): the header row, then at least one data row.
func goldenCSV(t *testing.T, profile, name string) [][]string {
	t.Helper()
	text, ok := testutil.Golden(t, profile, name+".csv")
	if !ok {
		t.Fatalf("no golden %s/%s.csv", profile, name)
	}
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("golden %s/%s.csv: %v (%d lines)", profile, name, err, len(recs))
	}
	return recs
}

// statsGolden reads an `nsys stats` CSV golden: rows as maps by header.
func statsGolden(t *testing.T, profile, name string) []map[string]string {
	t.Helper()
	recs := goldenCSV(t, profile, name)
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// sumsBy folds rank r's rows of a stats frame into Count, Sum, Min and Max
// per name(key).
type folded struct{ count, sum, min, max float64 }

func sumsBy(f *pyframe.Frame, rank int64, key string, name func(string) string) map[string]*folded {
	out := map[string]*folded{}
	for i, r := range f.Find("Rank").IntVals {
		if r != rank {
			continue
		}
		k := name(f.Find(key).Strs[i])
		c, s, lo, hi := f.Find("Count").Float(i), f.Find("Sum").Float(i), f.Find("Min").Float(i), f.Find("Max").Float(i)
		if g := out[k]; g != nil {
			g.count, g.sum, g.min, g.max = g.count+c, g.sum+s, math.Min(g.min, lo), math.Max(g.max, hi)
		} else {
			out[k] = &folded{c, s, lo, hi}
		}
	}
	return out
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkStatsGolden compares per-name Count (plus the zero-length rows the
// recipe drops), Total, Min and Max with an `nsys stats` golden.
func checkStatsGolden(t *testing.T, rows []map[string]string, got map[string]*folded, nameCol, countCol string, zero map[string]int) {
	t.Helper()
	if len(rows) != len(got) {
		t.Errorf("%d names, nsys stats has %d", len(got), len(rows))
	}
	for _, w := range rows {
		g := got[w[nameCol]]
		if g == nil {
			t.Errorf("%q: missing", w[nameCol])
			continue
		}
		if g.count+float64(zero[w[nameCol]]) != atof(t, w[countCol]) || g.sum != atof(t, w["Total Time (ns)"]) {
			t.Errorf("%q: count %v (+%d zero) sum %v, nsys stats %s %s", w[nameCol], g.count, zero[w[nameCol]], g.sum, w[countCol], w["Total Time (ns)"])
		}
		if zero[w[nameCol]] == 0 && (g.min != atof(t, w["Min (ns)"]) || g.max != atof(t, w["Max (ns)"])) {
			t.Errorf("%q: min %v max %v, nsys stats %s %s", w[nameCol], g.min, g.max, w["Min (ns)"], w["Max (ns)"])
		}
	}
}
