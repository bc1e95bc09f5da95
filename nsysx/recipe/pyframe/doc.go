// Package pyframe holds the files pandas + pyarrow write of the recipes'
// tables. The table type itself is package frame's (frame.Frame: typed
// columns with a pandas index kind, describe, exact integer sums); its
// names are aliased here (Frame, Column, Kind = frame.Type, ...) so that
// code and notebook cells written against pyframe keep working.
//
// WriteParquet writes a frame as pandas + pyarrow do (schema, pandas
// metadata, row groups, statistics) through the library's one Parquet
// writer, internal/parquetio, with its pandas option: this package maps
// the frame's column types to pyarrow's Arrow types and builds the pandas
// metadata (pandas_meta.go, pyjson.go for Python's json.dumps), which
// names the index columns. ReadParquet reads such a file back, and
// WriteCSV writes pandas' to_csv text; PyUnionOrder is CPython's set
// iteration order, which some recipes' row order follows. The runner
// (package recipe) writes a run's output directory with them.
package pyframe
