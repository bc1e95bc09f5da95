package format

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		in    string
		class numClass
		dec   int
	}{
		{"0", intNumber, 0}, {"-5", intNumber, 0}, {"+5", intNumber, 0}, {"123", intNumber, 0},
		{"5.", fixedNumber, 0}, {"1.25", fixedNumber, 2}, {"-0.000", fixedNumber, 3},
		{"1e5", expNumber, 0}, {"1.5E+07", expNumber, 1}, {"1.e5", expNumber, 0}, {"2.5e-08", expNumber, 1},
		{"00", notNumber, 0}, {"-007", notNumber, 0}, {".5", notNumber, 0}, {"nan", notNumber, 0},
		{"inf", notNumber, 0}, {"0x10", notNumber, 0}, {" 5", notNumber, 0}, {"5 ", notNumber, 0},
		{"1,000", notNumber, 0}, {"", notNumber, 0}, {"-", notNumber, 0}, {"1e", notNumber, 0},
		{"1e+", notNumber, 0}, {"--1", notNumber, 0}, {"1.2.3", notNumber, 0},
	}
	for _, tt := range tests {
		class, dec := classify(tt.in)
		if class != tt.class || dec != tt.dec {
			t.Errorf("classify(%q) = %d, %d; want %d, %d", tt.in, class, dec, tt.class, tt.dec)
		}
	}
}

func TestReformat(t *testing.T) {
	tests := []struct{ in, sep, want string }{
		{"1234567", "", "1234567"},
		{"1234567", ",", "1,234,567"},
		{"1234567.0", ",", "1,234,567.0"},
		{"-1234.5678", ",", "-1,234.5678"},
		{"+5", ",", "5"},
		{"-0", ",", "0"},
		{"5.", ",", "5"},
		{"-0.000", ",", "-0.000"},
		{"100", ",", "100"},
		{"-100000", ",", "-100,000"},
		{"12345678901234567890123", ",", "9,223,372,036,854,775,807"},
		{"-12345678901234567890123", "", "-9223372036854775808"},
		{"1e5", ",", "1e+05"},
		{"1.5E+07", ",", "1.5e+07"},
		{"1.2345678901234568e+22", ",", "1.2345678901234568e+22"},
		{"0.30000000000000004", ",", "0.30000000000000004"},
		{"1e999", "", "inf"},
		{"-1e999", "", "-inf"},
		{"1e-300", "", "1e-300"},
	}
	for _, tt := range tests {
		class, dec := classify(tt.in)
		if got := reformat(tt.in, class, dec, tt.sep); got != tt.want {
			t.Errorf("reformat(%q, %q) = %q, want %q", tt.in, tt.sep, got, tt.want)
		}
	}
}

func TestGroup(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1", "1"}, {"999", "999"}, {"1000", "1,000"}, {"-1000", "-1,000"}, {"123456", "123,456"},
		{"1234567.891", "1,234,567.891"}, {"-0.5", "-0.5"}, {"inf", "inf"},
	}
	for _, tt := range tests {
		if got := group(tt.in, ","); got != tt.want {
			t.Errorf("group(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFixedIsPrintf(t *testing.T) {
	mul := func(a, b float64) float64 { return a * b } // at run time, not as exact constants
	tests := []struct {
		x    float64
		prec int
		want string
	}{
		{mul(2643864, 1e-6), 4, "2.6439"},
		{mul(6609.65, 0.001), 3, "6.610"},
		{mul(50, 1e-6), 4, "0.0000"},
		{mul(-50, 0.001), 3, "-0.050"},
		{mul(-1, 1e-6), 3, "-0.000"},
		{0.125, 2, "0.12"}, // exact tie: round half to even, as glibc
		{mul(1e20, 0.001), 3, "100000000000000000.000"},
	}
	for _, tt := range tests {
		if got := fixed(tt.x, tt.prec); got != tt.want {
			t.Errorf("fixed(%v, %d) = %q, want %q", tt.x, tt.prec, got, tt.want)
		}
	}
}
