package nsysxengine

import (
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// A profile whose CUDA graphs were traced whole: the idle breakdown's cell
// shows the note on graphs above its table, in HTML and text.
func TestIdleGraphNote(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "%open "+sqlitecopy.GraphTraced(t, "train", t.TempDir(), "train_graphs.sqlite")+" as g")
	r := cell(t, e, "%nsys stats -r gpu_idle_breakdown g")
	if len(r.Displays) == 0 {
		t.Fatal("no display")
	}
	d := r.Displays[len(r.Displays)-1].Data
	for _, mime := range []string{"text/html", "text/plain"} {
		if s, _ := d[mime].(string); !strings.Contains(strings.Join(strings.Fields(s), " "), "--cuda-graph-trace=node records one row per kernel") {
			t.Errorf("%s: no note on graphs in %.300q", mime, s)
		}
	}
}
