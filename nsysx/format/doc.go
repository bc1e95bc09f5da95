// Package format renders a report or rule result (*nsysx.Result) byte for byte
// as the output formatters of Nsight Systems 2025.3.1 do: csv, tsv, json,
// column, table, htable and hdoc, with nsys's unit conversion options.
//
// A format is chosen by a Spec, usually parsed from nsys's own syntax:
//
//	s, err := format.ParseSpec("column:nohdr:time=us")
//	err = format.Write(os.Stdout, result, s)
//
// Every cell is rendered from the text nsys's formatter sees (the Python str of
// the SQLite value, nsysx.ResultCol.Text). Columns named "Label:tag" are unit
// tagged: the tag picks a category (ts, dur, mem, thru, gid, addr, ratio), the
// header becomes "Label (unit)" and numeric cells are converted. The column and
// table formats also recognise numbers, reformat them, group digits as the
// process locale says (Spec.Locale overrides it) and align decimals.
//
// Write emits exactly what the formatter emits: for column and table the title
// block and, for rules, the wrapped advice and row-limit messages. The console's
// extra newline after a non-empty result, the "Processing [...]" lines and the
// SKIPPED lines belong to the command line, not to this package. The arrow and
// parquet names parse here but are written elsewhere (arrow.go, parquet.go).
package format
