package format

import "strings"

// wrapWidth is the line length rule messages are wrapped to.
const wrapWidth = 80

// wrapText wraps a rule message as nsys does, paragraph by paragraph (split at
// "\n"; empty paragraphs stay empty lines). While the rest of a paragraph is
// longer than width, the text before the last space among its first width
// characters becomes a line and wrapping goes on after that space; the
// remainder, width characters at most, is the last line. Continuation lines
// are not indented. A word longer than width stays unbroken.
func wrapText(msg string, width int) []string {
	var out []string
	for _, para := range strings.Split(msg, "\n") {
		rs := []rune(para)
		for len(rs) > width {
			cut := -1
			for i := width - 1; i >= 0; i-- {
				if rs[i] == ' ' {
					cut = i
					break
				}
			}
			if cut < 0 {
				break
			}
			out = append(out, string(rs[:cut]))
			rs = rs[cut+1:]
		}
		out = append(out, string(rs))
	}
	return out
}

// rowLimitMessage is the note a rule prints under a table cut at its row limit.
func rowLimitMessage(limit int) string {
	if limit == 1 {
		return "Only the top result is displayed. More data may be available."
	}
	return "Only the top " + itoa(limit) + " results are displayed. More data may be available."
}
