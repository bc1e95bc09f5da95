package format

import "strings"

const unitHelp = `
Unit options (every text format):
  time=U, ts=U, dur=U     timestamps/durations in ns, us, ms or sec (default ns)
  bytes=U, mem=U, thru=U  sizes/throughputs in B, KB, KiB, MB, MiB, GB or GiB
                          (default MB; thru is per second)
  gid=U                   global IDs as gidint, gidhex, gidsubint or gidsubhex
  addr=U                  addresses as uint or hex (default hex)
  noconv                  keep every value in the unit the report produced
  nohdrunit               leave the "(unit)" suffix out of headers
Unknown unit names are ignored; a later option overrides an earlier one.
`

var helps = map[string]string{
	"column": `column[:units][:nohdr][:nofmt][:autolines=N][:colmax=N][:W[:W...]]

Aligned text columns for reading on a console (.txt). Text is left-aligned,
numbers right-aligned on their decimal point and reprinted with the locale's
digit grouping. Widths come from the header and the first N rows (autolines,
default 100, 0 = all rows), each capped at colmax characters (default 100,
0 = no cap); longer values are cut and end in "…".
  nohdr    no header and dash lines
  nofmt    print numbers as they are, without reformatting or alignment
  W...     explicit widths in column order: "." = automatic, 0 = hide
`,
	"table": `table[:units][:nohdr][:nofmt][:autolines=N][:colmax=N][:W[:W...]]

The column format drawn inside +---+ text boxes (.txt); same options.
`,
	"csv": `csv[:units][:nohdr]

Comma-separated values (.csv). A value containing a comma is put in double
quotes; nothing else is escaped. Zero rows print nothing.
  nohdr    no header line
`,
	"tsv": `tsv[:units][:nohdr][:esc]

Tab-separated values (.tsv). A TAB inside a value becomes a space.
  nohdr    no header line
  esc      write a TAB inside a value as the two characters \t
`,
	"json": `json[:units]

An array of JSON objects, one per row, keyed by the column headers (.json).
Numbers and true/false/null are written bare, everything else as a string
(only backslash, double quote and TAB are escaped).
`,
	"hdoc": `hdoc[:units][:title=TEXT][:css=URL]

A complete HTML5 document holding the result as a <table> (.html).
  title=TEXT  the document title (default "Nsight Systems Stats Output")
  css=URL     link a stylesheet (a URL cannot hold ':', the option separator)
`,
	"htable": `htable[:units]

A bare HTML <table> to embed in a larger page (.html).
`,
	"arrow": `arrow

An Apache Arrow IPC file with typed columns (.arrow); takes no options.
`,
	"parquet": `parquet

An Apache Parquet file with typed columns (.parquet); takes no options.
`,
}

// Help describes a format and its options, or lists the formats when name is
// empty or unknown.
func Help(name string) string {
	if h, ok := helps[name]; ok {
		f, _ := lookupFormat(name)
		if f.units {
			return h + unitHelp
		}
		return h
	}
	var b strings.Builder
	b.WriteString("Formats (use -f NAME[:option...]):\n")
	for _, f := range formats {
		b.WriteString("  " + f.name + strings.Repeat(" ", 9-len(f.name)) + f.summary + " (" + f.ext + ")\n")
	}
	return b.String()
}
