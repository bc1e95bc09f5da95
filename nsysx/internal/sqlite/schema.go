package sqlite

import (
	"strings"
)

// parseCreateTable extracts the column definitions of a CREATE TABLE statement.
// It understands what SQLite itself stores in sqlite_schema: quoted names,
// comments, table constraints and WITHOUT ROWID.
func parseCreateTable(sql string) (cols []Column, withoutRowid bool) {
	s := stripComments(sql)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return nil, false
	}
	depth, end := 0, -1
	for i := open; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				end = i
			}
		case '\'', '"', '`', '[':
			i = skipQuoted(s, i)
		}
	}
	if end < 0 {
		return nil, false
	}
	withoutRowid = indexFold(s[end:], "WITHOUT ROWID") >= 0
	defs := splitTop(s[open+1 : end])
	cols = make([]Column, 0, len(defs))
	for _, def := range defs {
		def = strings.TrimSpace(def)
		if def == "" || isConstraint(def) {
			continue
		}
		name, rest := firstToken(def)
		restUp := strings.ToUpper(strings.TrimSpace(rest)) // no copy when already upper case, as nsys writes it
		decl := restUp
		for _, kw := range declEnds {
			decl = cutKeyword(decl, kw)
		}
		if strings.HasPrefix(decl, "NOT") || strings.HasPrefix(decl, "PRIMARY") {
			decl = ""
		}
		rowidKey := decl == "INTEGER" && strings.Contains(restUp, "PRIMARY KEY") && !strings.Contains(restUp, "DESC")
		notNull := strings.Contains(restUp, "NOT NULL")
		cols = append(cols, Column{Name: name, Decl: decl, RowidKey: rowidKey, NotNull: notNull, Default: strings.Contains(restUp, "DEFAULT")})
	}
	return cols, withoutRowid
}

// declEnds are the words that end a column's declared type, each with the
// space before it (the type may also start with one).
var declEnds = [...]string{" NOT ", " NULL", " PRIMARY", " DEFAULT", " UNIQUE", " CHECK", " REFERENCES", " COLLATE", " CONSTRAINT", " GENERATED", " AS "}

// cutKeyword returns decl up to the keyword kw (which starts with a space:
// at decl's start it matches without it), trimmed; decl when kw is not in
// it. Schema parsing runs for every table on every open, so no string is
// built here.
func cutKeyword(decl, kw string) string {
	if strings.HasPrefix(decl, kw[1:]) {
		return ""
	}
	if i := strings.Index(decl, kw); i >= 0 {
		return strings.TrimSpace(decl[:i])
	}
	return decl
}

// isConstraint says whether a column list entry is a table constraint
// (SQLite's keywords are ASCII, in any case).
func isConstraint(def string) bool {
	for _, kw := range []string{"PRIMARY KEY", "UNIQUE", "CHECK", "FOREIGN KEY", "CONSTRAINT"} {
		if len(def) >= len(kw) && strings.EqualFold(def[:len(kw)], kw) {
			return true
		}
	}
	return false
}

// indexFold is strings.Index for an upper-case ASCII word, in any case.
func indexFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

func firstToken(def string) (string, string) {
	switch def[0] {
	case '"', '`', '[', '\'':
		close := byte('"')
		switch def[0] {
		case '`':
			close = '`'
		case '[':
			close = ']'
		case '\'':
			close = '\''
		}
		var b strings.Builder
		for i := 1; i < len(def); i++ {
			if def[i] == close {
				if close != ']' && i+1 < len(def) && def[i+1] == close {
					b.WriteByte(close)
					i++
					continue
				}
				return b.String(), def[i+1:]
			}
			b.WriteByte(def[i])
		}
		return b.String(), ""
	}
	i := strings.IndexAny(def, " \t\n\r")
	if i < 0 {
		return def, ""
	}
	return def[:i], def[i:]
}

func skipQuoted(s string, i int) int {
	close := s[i]
	if close == '[' {
		close = ']'
	}
	for j := i + 1; j < len(s); j++ {
		if s[j] == close {
			if close != ']' && j+1 < len(s) && s[j+1] == close {
				j++
				continue
			}
			return j
		}
	}
	return len(s) - 1
}

func splitTop(s string) []string {
	out := make([]string, 0, strings.Count(s, ",")+1)
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '\'', '"', '`', '[':
			i = skipQuoted(s, i)
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

func stripComments(s string) string {
	if !strings.Contains(s, "--") && !strings.Contains(s, "/*") {
		return s
	}
	// nsys comments every column: runs between comments are copied whole
	b := make([]byte, 0, len(s))
	last := 0 // s[last:i] is yet to be copied
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '-' && i+1 < len(s) && s[i+1] == '-': // to the end of the line, the newline included
			b = append(append(b, s[last:i]...), ' ')
			if j := strings.IndexByte(s[i:], '\n'); j < 0 {
				i = len(s)
			} else {
				i += j
			}
			last = i + 1
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			b = append(append(b, s[last:i]...), ' ')
			if j := strings.Index(s[i+2:], "*/"); j < 0 {
				i = len(s)
			} else {
				i += j + 3
			}
			last = i + 1
		case c == '\'' || c == '"' || c == '`' || c == '[':
			i = skipQuoted(s, i)
		}
	}
	if last < len(s) {
		b = append(b, s[last:]...)
	}
	return string(b)
}
