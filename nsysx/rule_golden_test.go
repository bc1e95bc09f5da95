package nsysx_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// render writes r in an nsys format.
func render(t *testing.T, r *nsysx.Result, spec string) string {
	s, err := format.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := format.Write(&b, r, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRuleGolden runs every rule golden of every profile: the CSV data table
// (`nsys analyze -f csv -o BASE`) and, where nsys's console output was kept,
// the column format with its advice and messages (empty lines removed, as in
// the goldens). A SKIPPED rule must have an empty golden.
func TestRuleGolden(t *testing.T) {
	for _, prof := range nsysx.GoldenProfiles {
		t.Run(prof, func(t *testing.T) {
			p, err := nsysx.Open(nsysx.RuleFixture(t, prof))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			for name, spec := range nsysx.RuleGoldenSpecs(t, prof) {
				t.Run(name, func(t *testing.T) {
					want := nsysx.ReadRuleGolden(t, prof, name+".csv")
					r, err := p.Analyze(context.Background(), spec)
					if err != nil {
						t.Fatal(err)
					}
					if r.Skipped != "" {
						// nsys writes an empty file for a SKIPPED rule.
						if want != "" {
							t.Fatalf("SKIPPED: %s", r.Skipped)
						}
						return
					}
					if got := render(t, r, "csv"); got != want {
						t.Errorf("%s %s csv: %s", prof, spec, nsysx.DiffLines(got, want))
					}
					console, ok := nsysx.TryRuleGolden(prof, name+".console.txt")
					if !ok {
						return
					}
					got := dropEmptyLines(render(t, r, "column"))
					if got != console {
						t.Errorf("%s %s column: %s", prof, spec, nsysx.DiffLines(got, console))
					}
				})
			}
		})
	}
}

// dropEmptyLines deletes every empty line, as was done to the console goldens.
func dropEmptyLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "\n" && l != "" {
			b.WriteString(l)
		}
	}
	return b.String()
}
