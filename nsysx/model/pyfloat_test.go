package model

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// pyFloatRef is Python's repr(float) spelled out from strconv's shortest
// 'e' form with string operations, independently of AppendPyFloat.
func pyFloatRef(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	mant, exps, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	exp, _ := strconv.Atoi(exps)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp >= -4 && exp < 16 {
		switch {
		case exp < 0:
			return sign + "0." + strings.Repeat("0", -exp-1) + digits
		case len(digits) <= exp+1:
			return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		}
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	if exp < 10 {
		es += "0"
	}
	return out + "e" + es + strconv.Itoa(exp)
}

func TestAppendPyFloat(t *testing.T) {
	cases := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, 123.4, 1e16, 1e15, 9999999999999998, 1e-4, 1e-5, 1.25e-7,
		-3.5e300, 5e-324, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 100, 12345.6, 0.1, 2.5e22,
		-0.1, 0.05, -0.04, 99999999999999.9, 1e14 - 0.1, 1e14, 1e14 + 0.1, 123456789012.3, 0.30000000000000004}
	want := map[float64]string{1e16: "1e+16", 1e-5: "1e-05", 100: "100.0", 0.1: "0.1", 12345.6: "12345.6", 1e-4: "0.0001",
		-0.1: "-0.1", 99999999999999.9: "99999999999999.9", 0.30000000000000004: "0.30000000000000004"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		cases = append(cases, math.Float64frombits(r.Uint64()), float64(r.IntN(1e9))/10, r.NormFloat64()*1e6,
			Round1(r.NormFloat64()*math.Pow(10, float64(r.IntN(20)-3))), float64(r.Int64N(2e15)-1e15)/10)
	}
	for _, f := range cases {
		got := string(AppendPyFloat([]byte("x"), f))
		if got != "x"+pyFloatRef(f) || PyFloat(f) != pyFloatRef(f) {
			t.Fatalf("%v: AppendPyFloat %q, PyFloat %q, want %q", f, got, PyFloat(f), pyFloatRef(f))
		}
		if w, ok := want[f]; ok && got != "x"+w {
			t.Fatalf("%v: %q, want %q (Python's repr)", f, got, w)
		}
	}
}

// BenchmarkAppendPyFloat formats the float cells of a summary (Avg, Med,
// StdDev: one decimal) as the CSV writer does, into one buffer.
func BenchmarkAppendPyFloat(b *testing.B) {
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = Round1(float64(i*7919%100000) * 13.7)
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = buf[:0]
		for _, v := range vals {
			buf = AppendPyFloat(buf, v)
		}
	}
}
