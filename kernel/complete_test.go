package kernel

import (
	"context"
	"slices"
	"strings"
	"testing"
)

type nopEngine struct{}

func (nopEngine) Execute(context.Context, string, Output) error { return nil }
func (nopEngine) Complete(code string, cursor int) Completion {
	return Completion{Matches: []string{"engine"}, Start: cursor, End: cursor}
}
func (nopEngine) Inspect(string, int, int) Inspection { return Inspection{Found: true} }
func (nopEngine) IsComplete(string) (string, string)  { return "complete", "" }

func TestCompleteMagic(t *testing.T) {
	k, err := New(nopEngine{})
	if err != nil {
		t.Fatal(err)
	}
	err = k.Magics().Register(Magic{Name: "sql", Cell: true, Flags: []string{"--db", "--limit"},
		Run: func(context.Context, []string, string, Output) error { return nil },
		Complete: func(c MagicCursor) ([]string, int) {
			if c.InBody {
				return []string{"TABLE_" + c.Word}, len(c.Word)
			}
			if strings.HasPrefix(c.Word, "-") {
				return nil, 0
			}
			return []string{"file.sqlite"}, len(c.Word)
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code  string
		want  []string
		start int
	}{
		{"%ti", []string{"%timeit", "%%timeit"}, 0},
		{"x := 1\n  %he", []string{"%help"}, 9},
		{"%%ti", []string{"%%timeit"}, 0},
		{"%timeit -", []string{"-n", "-r"}, 8},
		{"%%sql --l", []string{"--limit"}, 6},
		{"%%sql f", []string{"file.sqlite"}, 6},
		{"%%sql x\nSELECT * FROM Str", []string{"TABLE_Str"}, 22},
		{"s := `\n%he", []string{"engine"}, 10}, // inside a raw string: Go code
		{"x.", []string{"engine"}, 2},
	} {
		c, ok := k.completeMagic(tc.code, len(tc.code))
		if !ok {
			c = k.engine.Complete(tc.code, len(tc.code))
		}
		if !slices.Equal(c.Matches, tc.want) || c.Start != tc.start || c.End != len(tc.code) {
			t.Errorf("%q: got %v [%d,%d], want %v [%d,...]", tc.code, c.Matches, c.Start, c.End, tc.want, tc.start)
		}
	}
}

func TestInspectMagic(t *testing.T) {
	k, _ := New(nopEngine{})
	in, ok := k.inspectMagic("%timeit -n 3 f()", 3)
	if !ok || !strings.Contains(in.Data["text/plain"].(string), "mean ± standard deviation") {
		t.Errorf("%v %+v", ok, in)
	}
	if _, ok := k.inspectMagic("%timeit -n 3 f()", 9); ok {
		t.Error("an argument is not the magic name")
	}
}

func TestLastWord(t *testing.T) {
	for in, want := range map[string][2]string{
		"":             {"", ""},
		"-r ":          {"-r", ""},
		"-r cuda":      {"-r", "cuda"},
		`a "b c`:       {"a", "b c"},
		`-o 'x' --for`: {"-o x", "--for"},
	} {
		args, w := lastWord(in)
		if strings.Join(args, " ") != want[0] || w != want[1] {
			t.Errorf("%q: %q %q", in, args, w)
		}
	}
}
