package report

import (
	"math"
	"strings"
	"testing"
)

// TestParseTimeFilter checks the --filter-time and --filter-nvtx parsers and
// the report options their filters stand for.
func TestParseTimeFilter(t *testing.T) {
	for _, c := range []struct {
		arg        string
		start, end int64
	}{
		{"156893133/278498292", 156893133, 278498292},
		{"1s2ms3us4ns/", 1002003004, math.MaxInt64},
		{"/1.5e3us", math.MinInt64, 1500000},
		{"1m/1h", 60e9, 3600e9},
		{"1min/1hour", 60e9, 3600e9},
		{"2.3ms/1.1sec", 2300000, 1100000000},
		{"1.5nsec/2usec", 2, 2000},
		{"-5us/0", -5000, 0},
		{"/", math.MinInt64, math.MaxInt64},
	} {
		f, err := ParseTimeFilter(c.arg)
		if err != nil {
			t.Errorf("%q: %v", c.arg, err)
			continue
		}
		if f.Start != c.start || f.End != c.end {
			t.Errorf("%q: %d/%d, want %d/%d", c.arg, f.Start, f.End, c.start, c.end)
		}
	}
	for _, bad := range []string{"", "100", "abc/", "1q/2", "5/1", "1s/2x", "e5/"} {
		if f, err := ParseTimeFilter(bad); err == nil {
			t.Errorf("%q: no error (%+v)", bad, f)
		}
	}
	if _, err := ParseNVTXFilter(""); err == nil {
		t.Error("empty --filter-nvtx accepted")
	}
	f, _ := ParseTimeFilter("1/2")
	if got := strings.Join(f.Args(), ":"); got != "start=1:end=2" {
		t.Errorf("Args %q", got)
	}
	n, _ := ParseNVTXFilter("a@b/1")
	if got := strings.Join(n.Args(), ":"); got != "nvtx=a@b/1" {
		t.Errorf("Args %q", got)
	}
}
