package nsysxengine

import (
	"strings"
	"testing"
)

// A rule that finds nothing shows its verdict first, with what it looks for
// folded under it (<details>), not nsys's problem text and suggestion
// before the verdict; the text form keeps the CLI's (nsys's) text.
func TestRuleVerdictFirst(t *testing.T) {
	e := openEngine(t, "sync")
	r := cell(t, e, "%nsys analyze -r gpu_gaps:gap=1000") // sync's longest gap: 700 ms
	if len(r.Displays) == 0 {
		t.Fatal("no display")
	}
	h, _ := r.Displays[len(r.Displays)-1].Data["text/html"].(string)
	verdict := strings.Index(h, "There were no problems detected")
	details := strings.Index(h, "<details>")
	pre := strings.Index(h, "<pre")
	if verdict < 0 || details < 0 || pre < details || verdict > details {
		t.Errorf("want the verdict, then the explanation folded under <details>:\n%s", h)
	}
	if txt, _ := r.Displays[len(r.Displays)-1].Data["text/plain"].(string); strings.Count(txt, "There were no problems detected") != 1 {
		t.Errorf("text/plain: %q", txt)
	}
}
