package recipe

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestGPUMetricGolden compares gpu_metric_util_map and gpu_metric_util_sum
// on bt with nsys's goldens, including the categorical Duration column
// (its pandas metadata: categorical, all the bins' categories).
func TestGPUMetricGolden(t *testing.T) {
	for _, c := range []struct{ recipe, table string }{
		{"gpu_metric_util_map", "analysis"}, {"gpu_metric_util_sum", "rank_stats"},
	} {
		t.Run(c.recipe, func(t *testing.T) {
			res := runOn(t, c.recipe, nil, "bt")
			dir := goldenDir("bt", c.recipe)
			for _, tbl := range []string{c.table, "files"} {
				compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
			}
			checkCategories(t, filepath.Join(dir, c.table+".parquet"), res.Output.Table(c.table))
		})
	}
}

// checkCategories checks that the frame's Category columns are exactly the
// golden's categorical columns, with as many categories.
func checkCategories(t *testing.T, path string, f *Frame) {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var meta struct {
		Columns []struct {
			Name       string `json:"name"`
			PandasType string `json:"pandas_type"`
			Metadata   *struct {
				NumCategories int  `json:"num_categories"`
				Ordered       bool `json:"ordered"`
			} `json:"metadata"`
		} `json:"columns"`
	}
	if err := json.Unmarshal([]byte(*r.MetaData().KeyValueMetadata().FindValue("pandas")), &meta); err != nil {
		t.Fatal(err)
	}
	for _, c := range meta.Columns {
		col := f.Col(c.Name)
		if col == nil {
			continue
		}
		if (c.PandasType == "categorical") != (col.Kind == Category) {
			t.Errorf("%s: pandas type %s, kind %v", c.Name, c.PandasType, col.Kind)
		}
		if col.Kind == Category && (c.Metadata == nil || c.Metadata.NumCategories != len(col.Cats) || !c.Metadata.Ordered) {
			t.Errorf("%s: %d categories, want %+v", c.Name, len(col.Cats), c.Metadata)
		}
	}
}
