package pyframe

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// PyFloat formats x the way Python's repr(float) (and numpy's str of a
// float64, which pandas' to_csv uses) does: the shortest text that reads
// back as x, in fixed notation when the decimal exponent is in [-4, 16)
// with at least one digit after the point ("28038.0", "0.0001"), else in
// scientific notation with a two-digit exponent ("1e-05", "1.5e+16");
// "inf", "-inf" and "nan" for the special values (docs/recipes.md §1.6).
func PyFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'e', -1, 64) // [-]d[.ddd]e±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	e := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[e+1:])
	digits := strings.Replace(s[:e], ".", "", 1)
	decpt := exp + 1 // value = 0.digits × 10^decpt
	if decpt <= -4 || decpt > 16 {
		mant := digits[:1]
		if len(digits) > 1 {
			mant += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, mant, es, exp)
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	}
	return sign + digits[:decpt] + "." + digits[decpt:]
}

// PyJSON renders v as Python's json.dumps does: with indent < 0 the compact
// default form (", " and ": " separators, one line), otherwise indent
// spaces per level with "," at line ends. Strings are ASCII-escaped
// (ensure_ascii). v may be nil, bool, int, int64, *int64, float64, string,
// []string, []int64, []any or []KV (an object in key order).
func PyJSON(v any, indent int) (string, error) {
	var b strings.Builder
	if err := pyEncode(&b, v, indent, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func pyEncode(b *strings.Builder, v any, indent, depth int) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case *int64:
		if x == nil {
			b.WriteString("null")
		} else {
			b.WriteString(strconv.FormatInt(*x, 10))
		}
	case float64:
		b.WriteString(pyJSONFloat(x))
	case string:
		b.WriteString(pyQuote(x))
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		return pyList(b, items, indent, depth)
	case []int64:
		items := make([]any, len(x))
		for i, n := range x {
			items[i] = n
		}
		return pyList(b, items, indent, depth)
	case []any:
		return pyList(b, x, indent, depth)
	case []KV:
		return pyObject(b, x, indent, depth)
	default:
		return fmt.Errorf("recipe: cannot encode %T as JSON", v)
	}
	return nil
}

// pyJSONFloat is json.dumps' float: repr, with Infinity and NaN spelled
// as JavaScript does.
func pyJSONFloat(x float64) string {
	s := PyFloat(x)
	if js, ok := jsSpecials[s]; ok {
		return js
	}
	return s
}

// jsSpecials are repr's special floats in JavaScript's spelling.
var jsSpecials = map[string]string{"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}

func pyList(b *strings.Builder, items []any, indent, depth int) error {
	return pyContainer(b, "[]", len(items), indent, depth, func(i int) error {
		return pyEncode(b, items[i], indent, depth+1)
	})
}

func pyObject(b *strings.Builder, kvs []KV, indent, depth int) error {
	return pyContainer(b, "{}", len(kvs), indent, depth, func(i int) error {
		b.WriteString(pyQuote(kvs[i].Key))
		b.WriteString(": ")
		return pyEncode(b, kvs[i].Value, indent, depth+1)
	})
}

// pyContainer writes a list or an object at depth: its n items, each
// written by item, between the two brackets.
func pyContainer(b *strings.Builder, brackets string, n, indent, depth int, item func(i int) error) error {
	if n == 0 {
		b.WriteString(brackets)
		return nil
	}
	b.WriteByte(brackets[0])
	for i := range n {
		pySep(b, i, indent, depth+1)
		if err := item(i); err != nil {
			return err
		}
	}
	pyClose(b, indent, depth)
	b.WriteByte(brackets[1])
	return nil
}

// pySep writes what comes before item i of a container at depth.
func pySep(b *strings.Builder, i, indent, depth int) {
	if indent < 0 {
		if i > 0 {
			b.WriteString(", ")
		}
		return
	}
	if i > 0 {
		b.WriteByte(',')
	}
	b.WriteByte('\n')
	b.WriteString(strings.Repeat(" ", indent*depth))
}

func pyClose(b *strings.Builder, indent, depth int) {
	if indent >= 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", indent*depth))
	}
}

// pyQuote is json.dumps' string with ensure_ascii: every character outside
// printable ASCII is escaped, astral ones as a surrogate pair.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r >= 0x20 && r < 0x7f:
				b.WriteRune(r)
			case r > 0xffff:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// KV is one key of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}
