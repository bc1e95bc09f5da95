package gointerp

import (
	"slices"
	"strings"
	"testing"
)

func TestIsComplete(t *testing.T) {
	e := newEngine(t)
	for code, want := range map[string]string{
		"x := 1":                     "complete",
		"":                           "complete",
		"func f() {":                 "incomplete",
		"x := []int{1,\n2,":          "incomplete",
		"y := 1 +":                   "incomplete",
		"s := `raw":                  "incomplete",
		"/* comment":                 "incomplete",
		"x := )":                     "invalid",
		"}":                          "invalid",
		"func f() { return 1 }\nf()": "complete",
		"x := 1 1":                   "invalid",
		"import \"fmt\"\nfmt.":       "incomplete",
	} {
		if got, _ := e.IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", code, got, want)
		}
	}
	if _, indent := e.IsComplete("func f() {\n\tif x {"); indent != "\t\t" {
		t.Errorf("indent %q", indent)
	}
}

func TestComplete(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"strings\"\nmyVariable := 3\nfunc myFunc() {}")
	code := "strings.ToU"
	c := e.Complete(code, len(code))
	if !slices.Contains(c.Matches, "ToUpper") || c.Start != len("strings.") || c.End != len(code) {
		t.Errorf("%q: %+v", code, c)
	}
	c = e.Complete("x := my", 7)
	if !slices.Equal(c.Matches, []string{"myFunc", "myVariable"}) || c.Start != 5 {
		t.Errorf("globals: %+v", c)
	}
	c = e.Complete("fo", 2)
	if !slices.Contains(c.Matches, "for") {
		t.Errorf("keywords: %+v", c)
	}
	c = e.Complete("fmt.Spr", 7) // fmt is not imported yet: still a standard package
	if !slices.Contains(c.Matches, "Sprintf") {
		t.Errorf("unimported package: %+v", c)
	}
}

func TestInspect(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"strings\"\ncount := 7")
	in := e.Inspect("strings.ToUpper(x)", 10, 0)
	if !in.Found || !strings.Contains(in.Data["text/plain"].(string), "func strings.ToUpper(string) string") {
		t.Errorf("%+v", in)
	}
	in = e.Inspect("count", 2, 0)
	if !in.Found || in.Data["text/plain"] != "count int = 7" {
		t.Errorf("%+v", in)
	}
	if in := e.Inspect("nothing", 3, 0); in.Found {
		t.Errorf("%+v", in)
	}
}
