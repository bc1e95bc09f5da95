package format

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// numClass is what nsys's number recogniser makes of a cell.
type numClass uint8

const (
	notNumber   numClass = iota
	intNumber            // [+-]?(0|[1-9][0-9]*)
	fixedNumber          // with a '.' and no exponent
	expNumber            // with an exponent
)

// classify matches s against [+-]?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][+-]?[0-9]+)?
// and returns its class and the number of digits after the '.' (in the
// mantissa for exponent numbers).
func classify(s string) (numClass, int) {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	switch {
	case i >= n:
		return notNumber, 0
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && isDigit(s[i]) {
			i++
		}
	default:
		return notNumber, 0
	}
	class, dec := intNumber, 0
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && isDigit(s[i]) {
			i++
		}
		class, dec = fixedNumber, i-start
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < n && isDigit(s[i]) {
			i++
		}
		if i == start {
			return notNumber, 0
		}
		class = expNumber
	}
	if i != n {
		return notNumber, 0
	}
	return class, dec
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsNumber reports whether nsys's formatters treat s as a number.
func IsNumber(s string) bool {
	c, _ := classify(s)
	return c != notNumber
}

// parseInt reads an integer cell as strtoll does: out-of-range values clamp.
func parseInt(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64) // on ErrRange n is already clamped
	return n
}

// parseFloat reads a numeric cell as strtod does (overflow gives ±Inf).
func parseFloat(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}

// fixed is printf("%.*f", prec, x).
func fixed(x float64, prec int) string {
	if s, ok := special(x); ok {
		return s
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// expo is printf("%.*e", prec, x).
func expo(x float64, prec int) string {
	if s, ok := special(x); ok {
		return s
	}
	return strconv.FormatFloat(x, 'e', prec, 64)
}

func special(x float64) (string, bool) {
	switch {
	case math.IsInf(x, 1):
		return "inf", true
	case math.IsInf(x, -1):
		return "-inf", true
	case math.IsNaN(x):
		return "nan", true
	}
	return "", false
}

// reformat reprints a numeric cell as the column formatter does: integers
// through a clamped int64, fixed-point values with their number of decimals,
// exponent values as %.<d>e; sep groups the integer digits.
func reformat(s string, class numClass, dec int, sep string) string {
	switch class {
	case intNumber:
		return group(strconv.FormatInt(parseInt(s), 10), sep)
	case fixedNumber:
		return group(fixed(parseFloat(s), dec), sep)
	case expNumber:
		return expo(parseFloat(s), dec)
	}
	return s
}

// group inserts sep between every three digits of the integer part of s.
func group(s, sep string) string {
	if sep == "" {
		return s
	}
	start := 0
	if start < len(s) && (s[start] == '-' || s[start] == '+') {
		start++
	}
	end := start
	for end < len(s) && isDigit(s[end]) {
		end++
	}
	digits := end - start
	if digits <= 3 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + (digits-1)/3*len(sep))
	b.WriteString(s[:start])
	for i := start; i < end; i++ {
		if i > start && (end-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteByte(s[i])
	}
	b.WriteString(s[end:])
	return b.String()
}

// width is the display width nsys uses: the number of code points.
func width(s string) int { return utf8.RuneCountInString(s) }
