// Package frame holds the library's tables, below the analyses that build
// them and the formatters that render them.
//
// Result is the table every report and rule returns: typed columns,
// stored or computed, with nsys's column specs (label, unit, rounding),
// and its table methods (Sort, Where, GroupBy(...).Agg(...), Join, Select,
// Head, Tail). The formatters (package format) render it.
//
// Frame is the columnar table of the recipes' outputs: typed columns
// (Type: int64, uint64, uint32, float64, string, all-NULL, list<int64>,
// categorical) with a pandas index kind (IndexKind), pandas' describe over
// groups (Describe, DescribeGrouped, GroupRows) and exact integer sums
// (AddInt, Elapsed; an *OverflowError rather than a wrap). Frame.Result
// makes a Result of a Frame and FromResult a Frame of a Result, so a recipe
// output goes through the same formatters as a report result, and a report
// result can be written as pandas writes a DataFrame (package pyframe,
// through internal/parquetio's pandas option).
package frame
