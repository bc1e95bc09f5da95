package pqcompare

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// compareSchema compares the Parquet schema (each top-level field and each
// leaf column) and the stored Arrow schema.
func compareSchema(d *diffs, w, g *parsed) {
	wl, gl := parquetFields(w.pf.MetaData().Schema), parquetFields(g.pf.MetaData().Schema)
	compareLines(d, "parquet schema", wl, gl)
	switch {
	case w.arrow == nil && g.arrow == nil:
		return
	case w.arrow == nil || g.arrow == nil:
		d.add("ARROW:schema: want present=%v, got present=%v", w.arrow != nil, g.arrow != nil)
		return
	}
	compareLines(d, "Arrow schema", arrowFields(w.arrow), arrowFields(g.arrow))
}

// parquetFields describes every top-level field and leaf column in order.
func parquetFields(s *schema.Schema) []string {
	var out []string
	root := s.Root()
	for i := 0; i < root.NumFields(); i++ {
		f := root.Field(i)
		out = append(out, fmt.Sprintf("field %q: %v %v", f.Name(), f.RepetitionType(), f.LogicalType()))
	}
	for i := 0; i < s.NumColumns(); i++ {
		c := s.Column(i)
		out = append(out, fmt.Sprintf("column %s: %v %v def=%d rep=%d",
			c.Path(), c.PhysicalType(), c.LogicalType(), c.MaxDefinitionLevel(), c.MaxRepetitionLevel()))
	}
	return out
}

// arrowFields describes the stored Arrow schema's fields and its metadata
// keys.
func arrowFields(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, fmt.Sprintf("field %q: %s nullable=%v", f.Name, f.Type, f.Nullable))
	}
	return append(out, fmt.Sprintf("metadata keys %q", s.Metadata().Keys()))
}

// compareLines reports the lines that differ, position by position.
func compareLines(d *diffs, what string, want, got []string) {
	if len(want) != len(got) {
		d.add("%s: want %d entries, got %d", what, len(want), len(got))
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		if want[i] != got[i] {
			d.add("%s: want %s, got %s", what, want[i], got[i])
		}
	}
}

// comparePandas compares the pandas metadata as parsed JSON, ignoring the
// values under "creator".
func comparePandas(d *diffs, w, g *parsed) {
	wp, gp := normPandas(w.pandas), normPandas(g.pandas)
	jsonDiff(d, "pandas metadata", wp, gp)
}

func normPandas(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	if _, ok := out["creator"]; ok {
		out["creator"] = "(ignored)"
	}
	return out
}

// jsonDiff reports where two parsed JSON values differ, by path.
func jsonDiff(d *diffs, path string, want, got any) {
	switch wv := want.(type) {
	case map[string]any:
		gv, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range wv {
			keys[k] = true
		}
		for k := range gv {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			_, inW := wv[k]
			_, inG := gv[k]
			switch {
			case !inG:
				d.add("%s: key %q missing", path, k)
			case !inW:
				d.add("%s: unexpected key %q", path, k)
			default:
				jsonDiff(d, path+"."+k, wv[k], gv[k])
			}
		}
		return
	case []any:
		gv, ok := got.([]any)
		if !ok || len(gv) != len(wv) {
			break
		}
		for i := range wv {
			jsonDiff(d, fmt.Sprintf("%s[%d]", path, i), wv[i], gv[i])
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		d.add("%s: want %s, got %s", path, short(want), short(got))
	}
}

func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
