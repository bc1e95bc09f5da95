package recipes

import (
	"encoding/json"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// checkCategories checks that the frame's Category columns are exactly the
// golden's categorical columns, with as many categories.
func checkCategories(t *testing.T, path string, f *pyframe.Frame) {
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
		col := f.Find(c.Name)
		if col == nil {
			continue
		}
		if (c.PandasType == "categorical") != (col.Type == pyframe.Category) {
			t.Errorf("%s: pandas type %s, kind %v", c.Name, c.PandasType, col.Type)
		}
		if col.Type == pyframe.Category && (c.Metadata == nil || c.Metadata.NumCategories != len(col.Cats) || !c.Metadata.Ordered) {
			t.Errorf("%s: %d categories, want %+v", c.Name, len(col.Cats), c.Metadata)
		}
	}
}
