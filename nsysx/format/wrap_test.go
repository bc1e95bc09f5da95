package format

import (
	"reflect"
	"strings"
	"testing"
)

func TestWrapText(t *testing.T) {
	long := "The following are ranges where a GPU is idle for more than 1ms. Addressing these gaps might improve application performance."
	tests := []struct {
		in   string
		want []string
	}{
		{"short", []string{"short"}},
		{"", []string{""}},
		{"a\n\nb", []string{"a", "", "b"}},
		{long, []string{
			"The following are ranges where a GPU is idle for more than 1ms. Addressing",
			"these gaps might improve application performance."}},
		// exactly 80 stays whole; 81 wraps at the last space in the first 80
		{strings.Repeat("x", 75) + " abcd", []string{strings.Repeat("x", 75) + " abcd"}},
		{strings.Repeat("x", 75) + " abcde", []string{strings.Repeat("x", 75), "abcde"}},
		// a space at index 79 is the last one allowed
		{strings.Repeat("x", 79) + " y " + "z", []string{strings.Repeat("x", 79), "y z"}},
		{strings.Repeat("x", 80) + " y", []string{strings.Repeat("x", 80) + " y"}}, // no space to break at
		{"   2. Add NVTX annotations to CPU code to understand the reason behind the gaps.",
			[]string{"   2. Add NVTX annotations to CPU code to understand the reason behind the gaps."}},
	}
	for _, tt := range tests {
		if got := wrapText(tt.in, 80); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("wrapText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRowLimitMessage(t *testing.T) {
	if got := rowLimitMessage(1); got != "Only the top result is displayed. More data may be available." {
		t.Error(got)
	}
	if got := rowLimitMessage(50); got != "Only the top 50 results are displayed. More data may be available." {
		t.Error(got)
	}
}
