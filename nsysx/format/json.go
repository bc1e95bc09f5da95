package format

import (
	"bufio"
	"strings"
)

// writeJSON writes an array with one object per row, two-space indented.
func writeJSON(w *bufio.Writer, t *textTable) {
	w.WriteString("[\n")
	keys := make([]string, len(t.heads))
	for j, h := range t.heads {
		keys[j] = `    "` + jsonEscape(h) + `": `
	}
	for i := 0; i < t.rows; i++ {
		w.WriteString("  {\n")
		for j := 0; j < t.ncols(); j++ {
			w.WriteString(keys[j])
			w.WriteString(jsonValue(t.cell(j, i)))
			if j < t.ncols()-1 {
				w.WriteByte(',')
			}
			w.WriteByte('\n')
		}
		w.WriteString("  }")
		if i < t.rows-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	w.WriteString("]\n")
}

// jsonValue writes numbers (nsys's grammar, so "+5" and "5." too) and the
// keywords true, false and null bare, anything else as a string.
func jsonValue(s string) string {
	if IsNumber(s) || s == "true" || s == "false" || s == "null" {
		return s
	}
	return `"` + jsonEscape(s) + `"`
}

var jsonEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`)

// jsonEscape escapes backslash, double quote and TAB only; newlines and other
// control characters stay raw, as in nsys.
func jsonEscape(s string) string {
	if strings.ContainsAny(s, "\\\"\t") {
		return jsonEscaper.Replace(s)
	}
	return s
}
