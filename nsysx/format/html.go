package format

import (
	"bufio"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

const defaultDocTitle = "Nsight Systems Stats Output"

// writeHTable writes a bare <table>. Headers are written unescaped and cells
// escape only &, < and >, as nsys does. Zero rows give the truncated table
// nsys prints: <table>, </tbody>, </table>.
func writeHTable(w *bufio.Writer, t *textTable) {
	w.WriteString("<table>\n")
	if t.rows == 0 {
		w.WriteString("  </tbody>\n</table>\n")
		return
	}
	w.WriteString("  <thead>\n    <tr>\n")
	for _, h := range t.heads {
		w.WriteString("      <th>" + h + "</th>\n")
	}
	w.WriteString("    </tr>\n  </thead>\n  <tbody>\n")
	for i := 0; i < t.rows; i++ {
		w.WriteString("    <tr>\n")
		for j := 0; j < t.ncols(); j++ {
			w.WriteString("      <td>")
			w.WriteString(htmlEscape(t.cell(j, i)))
			w.WriteString("</td>\n")
		}
		w.WriteString("    </tr>\n")
	}
	w.WriteString("  </tbody>\n</table>\n")
}

// writeHDoc wraps the table in an HTML5 document headed by the report name.
func writeHDoc(w *bufio.Writer, r *nsysx.Result, t *textTable, s Spec) {
	title := defaultDocTitle
	if s.HasDocTitle {
		title = s.DocTitle
	}
	w.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"UTF-8\">\n")
	w.WriteString("  <title>" + title + "</title>\n")
	if s.CSS != "" {
		w.WriteString("  <link rel=\"stylesheet\" href=\"" + s.CSS + "\">\n")
	}
	w.WriteString("</head>\n<body>\n<h1>" + r.Title + " (" + r.Report + ")</h1>\n")
	writeHTable(w, t)
	w.WriteString("</body>\n</html>\n")
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func htmlEscape(s string) string {
	if strings.ContainsAny(s, "&<>") {
		return htmlEscaper.Replace(s)
	}
	return s
}
