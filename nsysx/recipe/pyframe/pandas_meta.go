package pyframe

// The "pandas" key-value metadata of a Parquet file (docs/recipes.md §1.8),
// written byte for byte as pyarrow's json.dumps writes it.

// PandasVersion is the pandas release whose metadata dialect the files
// follow (pandas 3: strings are numpy_type "str"). It is written as
// pandas_version; the creator names nsysx, not pyarrow.
const PandasVersion = "3.0.6"

// Creator is the "creator" entry of the pandas metadata.
var Creator = []KV{{"library", "nsysx"}, {"version", "2025.3.1"}}

// pandasMetadata builds the JSON pandas reads back to rebuild the frame's
// dtypes and index.
func pandasMetadata(f *Frame) (string, error) {
	var index []any
	switch f.Index {
	case RangeIndex:
		var name any
		if f.RangeName != "" {
			name = f.RangeName
		}
		index = []any{[]KV{{"kind", "range"}, {"name", name}, {"start", 0},
			{"stop", f.Rows()}, {"step", 1}}}
	case NamedIndex, LevelIndex:
		for _, n := range f.IndexCols {
			index = append(index, n)
		}
	}
	colIndexes := []any{}
	if f.Index != NoIndex {
		colIndexes = append(colIndexes, []KV{{"name", nil}, {"field_name", nil},
			{"pandas_type", "unicode"}, {"numpy_type", "str"},
			{"metadata", []KV{{"encoding", "UTF-8"}}}})
	}
	cols := make([]any, len(f.Cols))
	for i, c := range f.Cols {
		var name any = c.Name
		if f.Index == LevelIndex && c.Name == LevelIndexName {
			name = nil
		}
		pt, nt, md := pandasTypes(c)
		cols[i] = []KV{{"name", name}, {"field_name", c.Name}, {"pandas_type", pt},
			{"numpy_type", nt}, {"metadata", md}}
	}
	if index == nil {
		index = []any{}
	}
	return PyJSON([]KV{
		{"index_columns", index},
		{"column_indexes", colIndexes},
		{"columns", cols},
		{"attributes", []KV{}},
		{"creator", Creator},
		{"pandas_version", PandasVersion},
	}, -1)
}

// pandasTypes returns a column's pandas_type, numpy_type and metadata.
func pandasTypes(c *Column) (pandasType, numpyType string, meta any) {
	switch {
	case c.Type == Int64 && c.Valid != nil:
		return "int64", "Int64", nil
	case c.Type == Category:
		return "categorical", codeType(len(c.Cats)).String(),
			[]KV{{"num_categories", len(c.Cats)}, {"ordered", true}}
	}
	if t, ok := kindPandasTypes[c.Type]; ok {
		return t[0], t[1], nil
	}
	return "object", "object", nil
}

// kindPandasTypes are the pandas_type and numpy_type of the other kinds.
var kindPandasTypes = map[Kind][2]string{
	Int64: {"int64", "int64"}, Uint64: {"uint64", "uint64"}, Uint32: {"uint32", "uint32"},
	Float64: {"float64", "float64"}, String: {"object", "str"}, Null: {"empty", "object"},
	ListInt64: {"list[int64]", "object"},
}
