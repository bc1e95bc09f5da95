// Package pyframe holds the tables nsys's recipes produce, shaped the way
// pandas holds them, and the files pandas + pyarrow write of them.
//
// Frame and Column are typed columns with a pandas index kind (NoIndex,
// RangeIndex, NamedIndex, LevelIndex); every field is exported so a frame
// travels as plain data between a map and a reduce step. Describe is
// pandas' DataFrame.describe over groups (quartiles, rounding as pandas),
// with exact integer sums (AddInt, AddUint, Elapsed panic with an
// *nsysx.OverflowError rather than wrap); PyUnionOrder is CPython's set
// iteration order, which some recipes' row order follows.
//
// WriteParquet writes a frame as pandas + pyarrow do (schema, pandas
// metadata, row groups, statistics; parquet*.go, pandas_meta.go, pyjson.go
// for Python's json.dumps), ReadParquet reads such a file back, and
// WriteCSV writes pandas' to_csv text. The runner (package recipe) writes
// a run's output directory with them.
package pyframe
