// Package frame holds Result, the table every report and rule returns:
// typed columns, stored or computed, with nsys's column specs (label, unit,
// rounding), and its table methods (Sort, Where, GroupBy(...).Agg(...),
// Join, Select, Head, Tail). The formatters (package format) render it.
package frame
