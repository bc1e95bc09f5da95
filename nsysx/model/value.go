package model

import (
	"bytes"
	"cmp"
	"math"
	"strconv"
	"strings"
)

// Kind is the kind of a Value.
type Kind uint8

// Value kinds. Null sorts before numbers, numbers before text, as in SQLite.
const (
	NullKind Kind = iota
	IntKind
	FloatKind
	TextKind
)

// Value is one cell of a report row: NULL, an integer, a real or text.
type Value struct {
	Kind Kind
	I    int64
	F    float64
	S    string
}

// IntV, FloatV and TextV make values; Null is the NULL value.
func IntV(i int64) Value     { return Value{Kind: IntKind, I: i} }
func FloatV(f float64) Value { return Value{Kind: FloatKind, F: f} }
func TextV(s string) Value   { return Value{Kind: TextKind, S: s} }

// Null is the SQL NULL.
var Null = Value{}

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.Kind == NullKind }

// String renders v as nsys does (Python's str of the SQLite value): integers
// as digits, reals as Python's repr, NULL as the empty string.
func (v Value) String() string { return PyStr(v) }

// AsFloat returns the numeric value (NaN for NULL or text).
func (v Value) AsFloat() float64 {
	switch v.Kind {
	case IntKind:
		return float64(v.I)
	case FloatKind:
		return v.F
	}
	return math.NaN()
}

// smallInts caches the text of small integers (ids, counts, grid sizes),
// which make up most cells of a trace: substrings of one string, so that
// start-up makes three allocations rather than one per number.
var smallInts = func() []string {
	out := make([]string, 4096)
	digits := make([]byte, 0, 10*1+90*2+900*3+(len(out)-1000)*4)
	for i := range out {
		digits = strconv.AppendInt(digits, int64(i), 10)
	}
	all, start := string(digits), 0
	for i := range out {
		n := 1
		for v := i; v >= 10; v /= 10 {
			n++
		}
		out[i], start = all[start:start+n], start+n
	}
	return out
}()

func PyStr(v Value) string {
	switch v.Kind {
	case IntKind:
		if v.I >= 0 && v.I < int64(len(smallInts)) {
			return smallInts[v.I]
		}
		return strconv.FormatInt(v.I, 10)
	case FloatKind:
		return PyFloat(v.F)
	case TextKind:
		return v.S
	}
	return ""
}

// PyFloat formats f like Python's repr(float).
func PyFloat(f float64) string {
	var buf [32]byte
	return string(AppendPyFloat(buf[:0], f))
}

// AppendPyFloat appends f formatted like Python's repr(float) to b: the
// CSV writer formats millions of floats without a string each.
func AppendPyFloat(b []byte, f float64) []byte {
	if b, ok := appendTenths(b, f); ok {
		return b
	}
	switch {
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case math.IsNaN(f):
		return append(b, "nan"...)
	}
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64) // d.ddde±XX
	if s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	e := bytes.IndexByte(s, 'e')
	exp := 0
	for _, c := range s[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if s[e+1] == '-' {
		exp = -exp
	}
	// the digits, without the point: s[0] then s[2:e]
	var dbuf [24]byte
	digits := append(dbuf[:0], s[0])
	if e > 1 {
		digits = append(digits, s[2:e]...)
	}
	if exp >= -4 && exp < 16 {
		switch {
		case exp < 0:
			b = append(b, "0."...)
			for range -exp - 1 {
				b = append(b, '0')
			}
			b = append(b, digits...)
		case len(digits) <= exp+1:
			b = append(b, digits...)
			for range exp + 1 - len(digits) {
				b = append(b, '0')
			}
			b = append(b, ".0"...)
		default:
			b = append(b, digits[:exp+1]...)
			b = append(b, '.')
			b = append(b, digits[exp+1:]...)
		}
		return b
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	if exp < 0 {
		b = append(b, '-')
		exp = -exp
	} else {
		b = append(b, '+')
	}
	if exp < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

// appendTenths appends f like Python's repr(float) when f is the double
// nearest a number of tenths k/10 below 1e14, as the rounded cells of a
// summary (Round1) nearly always are: the integer part, a point and the
// tenths digit, without strconv's shortest-digits search (a third of the
// CSV writing of a million-row summary). That decimal is f's shortest
// repr: f's round-trip interval is under a hundredth wide there, and any
// decimal of fewer digits lies a tenth or more from k/10. ok is false for
// any other f.
func appendTenths(b []byte, f float64) ([]byte, bool) {
	if !(math.Abs(f) < 1e14) {
		return b, false
	}
	k := math.Round(f * 10)
	if k/10 != f {
		return b, false
	}
	if math.Signbit(f) {
		b = append(b, '-')
	}
	t := int64(math.Abs(k))
	b = strconv.AppendInt(b, t/10, 10)
	return append(b, '.', byte('0'+t%10)), true
}

// round1Decimal is Round1 through the exact decimal expansion of x: slow, but
// obviously right; the fast Round1 falls back to it for large values and is
// tested against it.
func round1Decimal(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1<<52 {
		return x
	}
	s := strconv.FormatFloat(math.Abs(x), 'f', 30, 64)
	ip, fp, _ := strings.Cut(s, ".")
	first := fp[0]
	rest := fp[1:]
	up := false
	if rest[0] > '5' {
		up = true
	} else if rest[0] == '5' {
		up = true // exactly half or more: away from zero
	}
	n, _ := strconv.ParseInt(ip+string(first), 10, 64)
	if up {
		n++
	}
	r := float64(n) / 10
	if x < 0 {
		r = -r
	}
	return r
}

// Round1 is SQLite 3.46's round(x, 1): ties (on the exact binary value) away
// from zero; values beyond 2^52 unchanged. It needs no decimal expansion: With FMA the error of x*10 is known exactly, which
// settles the floor and the tie.
func Round1(x float64) float64 {
	if !(math.Abs(x) < 1<<49) { // x*10 must stay an exact float integer
		return round1Decimal(x)
	}
	a := math.Abs(x)
	y := a * 10
	e := math.FMA(a, 10, -y) // a*10 == y+e exactly
	f := math.Floor(y)
	fr := y - f // exact
	n := f
	switch {
	case fr < -e: // a*10 lies just below the integer f: floor f-1, rounds up to f
	case fr-1 >= -e: // at or above f+1
		n = f + 1
	case fr-0.5 >= -e:
		n = f + 1
	}
	r := n / 10
	if x < 0 {
		r = -r
	}
	return r
}

// Compare orders two values as SQLite's ORDER BY does with BINARY collation:
// NULL < numbers < text.
func Compare(a, b Value) int {
	ra, rb := kindRank(a.Kind), kindRank(b.Kind)
	if ra != rb {
		return ra - rb
	}
	switch ra {
	case 0:
		return 0
	case 1:
		if a.Kind == IntKind && b.Kind == IntKind {
			return cmp.Compare(a.I, b.I)
		}
		fa, fb := a.AsFloat(), b.AsFloat()
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return strings.Compare(a.S, b.S)
}

func kindRank(k Kind) int {
	switch k {
	case NullKind:
		return 0
	case IntKind, FloatKind:
		return 1
	}
	return 2
}

// String names the kind: "null", "int", "float" or "text".
func (k Kind) String() string {
	switch k {
	case IntKind:
		return "int"
	case FloatKind:
		return "float"
	case TextKind:
		return "text"
	}
	return "null"
}

// Int returns v as an integer: reals truncated toward zero, 0 for NULL, text
// or a NaN.
func (v Value) Int() int64 {
	switch v.Kind {
	case IntKind:
		return v.I
	case FloatKind:
		if math.IsNaN(v.F) {
			return 0
		}
		return int64(v.F)
	}
	return 0
}

// Float is AsFloat: the numeric value, NaN for NULL or text.
func (v Value) Float() float64 { return v.AsFloat() }
