package pyframe

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// pandasMeta is the part of the pandas metadata ReadParquet needs.
type pandasMeta struct {
	IndexColumns []json.RawMessage `json:"index_columns"`
	Columns      []struct {
		FieldName  string `json:"field_name"`
		PandasType string `json:"pandas_type"`
		NumpyType  string `json:"numpy_type"`
	} `json:"columns"`
}

type rangeIndex struct {
	Kind string  `json:"kind"`
	Name *string `json:"name"`
}

// ReadParquet reads a Parquet file written by nsys (pandas + pyarrow) or
// by WriteParquet back into a Frame: the column kinds from the Arrow types
// and the pandas numpy_type (nullable Int64), the index kind from the
// pandas index_columns (docs/recipes.md §1.8).
func ReadParquet(path string) (*Frame, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer pf.Close()
	var pm pandasMeta
	if v := pf.MetaData().KeyValueMetadata().FindValue("pandas"); v != nil {
		if err := json.Unmarshal([]byte(*v), &pm); err != nil {
			return nil, fmt.Errorf("reading %s: pandas metadata: %w", path, err)
		}
	}
	numpy := map[string]string{}
	cats := map[string][]int64{}
	for _, c := range pm.Columns {
		numpy[c.FieldName] = c.NumpyType
		if c.PandasType == "categorical" {
			if cats[c.FieldName], err = categories(pf, c.FieldName); err != nil {
				return nil, fmt.Errorf("reading %s: %w", path, err)
			}
		}
	}
	cols, err := readColumns(pf, numpy)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	f := &Frame{}
	for _, c := range cols {
		if cs, ok := cats[c.Name]; ok && c.Type == Int64 {
			c.Type, c.Cats = Category, cs
		}
		f.Cols = append(f.Cols, c)
	}
	if err := setIndex(f, pm.IndexColumns); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return f, nil
}

// setIndex sets the frame's index from pandas' index_columns.
func setIndex(f *Frame, entries []json.RawMessage) error {
	for _, e := range entries {
		var name string
		if json.Unmarshal(e, &name) == nil {
			f.IndexCols = append(f.IndexCols, name)
			continue
		}
		var r rangeIndex
		if err := json.Unmarshal(e, &r); err != nil || r.Kind != "range" {
			return fmt.Errorf("pandas metadata: unsupported index entry %s", e)
		}
		f.Index = RangeIndex
		if r.Name != nil {
			f.RangeName = *r.Name
		}
	}
	switch {
	case len(f.IndexCols) == 1 && f.IndexCols[0] == LevelIndexName:
		f.Index = LevelIndex
	case len(f.IndexCols) > 0:
		f.Index = NamedIndex
	}
	return f.Check()
}

// categories reads the categories of an int64 categorical column: the
// values of its dictionary page (pyarrow writes the whole categorical
// dictionary there, used or not), PLAIN-encoded little-endian int64.
func categories(pf *file.Reader, name string) ([]int64, error) {
	ci := pf.MetaData().Schema.ColumnIndexByName(name)
	if ci < 0 || pf.NumRowGroups() == 0 {
		return nil, fmt.Errorf("categorical column %q not found", name)
	}
	if pt := pf.MetaData().Schema.Column(ci).PhysicalType(); pt != parquet.Types.Int64 {
		return nil, fmt.Errorf("categorical column %q: unsupported category type %v", name, pt)
	}
	pr, err := pf.RowGroup(0).GetColumnPageReader(ci)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	dp, err := pr.GetDictionaryPage()
	if err != nil || dp == nil {
		return nil, fmt.Errorf("categorical column %q has no dictionary page: %v", name, err)
	}
	if enc := parquet.Encoding(dp.Encoding()); enc != parquet.Encodings.Plain && enc != parquet.Encodings.PlainDict {
		return nil, fmt.Errorf("categorical column %q: dictionary encoding %v", name, dp.Encoding())
	}
	data := dp.Data()
	n := int(dp.NumValues())
	if len(data) < 8*n {
		return nil, fmt.Errorf("categorical column %q: short dictionary page", name)
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out, nil
}
