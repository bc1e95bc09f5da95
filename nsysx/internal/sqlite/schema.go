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
	withoutRowid = strings.Contains(strings.ToUpper(s[end:]), "WITHOUT ROWID")
	for _, def := range splitTop(s[open+1 : end]) {
		def = strings.TrimSpace(def)
		if def == "" {
			continue
		}
		up := strings.ToUpper(def)
		if isConstraint(up) {
			continue
		}
		name, rest := firstToken(def)
		restUp := strings.ToUpper(strings.TrimSpace(rest))
		decl := restUp
		for _, kw := range []string{" NOT ", " NULL", " PRIMARY", " DEFAULT", " UNIQUE", " CHECK", " REFERENCES", " COLLATE", " CONSTRAINT", " GENERATED", " AS "} {
			if k := strings.Index(" "+decl, kw); k >= 0 {
				decl = strings.TrimSpace(decl[:max(k-1, 0)])
			}
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

func isConstraint(up string) bool {
	for _, kw := range []string{"PRIMARY KEY", "UNIQUE", "CHECK", "FOREIGN KEY", "CONSTRAINT"} {
		if strings.HasPrefix(up, kw) {
			return true
		}
	}
	return false
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
	var out []string
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
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += j + 3
			}
			b.WriteByte(' ')
		case s[i] == '\'' || s[i] == '"' || s[i] == '`' || s[i] == '[':
			j := skipQuoted(s, i)
			b.WriteString(s[i : j+1])
			i = j
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
