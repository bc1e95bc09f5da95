package timeline

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// The default window is the second NVTX iteration; the view holds exactly
// the kernels of the raw table that overlap it, on lanes that never overlap.
func TestViewDefaultWindow(t *testing.T) {
	p := profile(t, "train")
	v, err := NewView(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	nv, err := p.Load(context.Background(), "NVTX_EVENTS", "start", "end", "text")
	if err != nil {
		t.Fatal(err)
	}
	var s, e int64
	for i := 0; i < nv.N; i++ {
		if nv.Col("text").Str(i) == "iteration 6" { // iterations 5..24: the second
			s, e = nv.Col("start").Int(i), nv.Col("end").Int(i)
		}
	}
	if v.Start != s || v.End != e || !strings.HasPrefix(v.Window, "iteration 6 (the second of 20") {
		t.Fatalf("window %q [%d, %d), want iteration 6 [%d, %d)", v.Window, v.Start, v.End, s, e)
	}
	k, _ := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end")
	want := 0
	for i := 0; i < k.N; i++ {
		ks, ke := k.Col("start").Int(i), k.Col("end").Int(i)
		if ks >= s && ks < e || ke >= s && ke < e || ks < s && ke >= e {
			want++
		}
	}
	got := 0
	for _, ev := range v.Events {
		if ev.Kind == KindKernel {
			got++
		}
	}
	if got != want || want == 0 {
		t.Errorf("%d kernels in the view, %d overlap the window in the raw table", got, want)
	}
	checkLanes(t, v)
	flows := 0
	for _, ev := range v.Events {
		for _, to := range ev.FlowTo {
			flows++
			if ev.Kind != KindAPI || !v.Events[to].Kind.GPU() {
				t.Fatalf("flow from %v to %v", ev.Kind, v.Events[to].Kind)
			}
		}
	}
	if flows == 0 {
		t.Error("no flows in the view")
	}
}

// checkLanes: events of one lane of a track never overlap, tracks are
// in order and each track has as many lanes as it uses.
func checkLanes(t *testing.T, v *View) {
	t.Helper()
	end := map[[2]int]int64{}
	for i, e := range v.Events {
		if i > 0 && e.Track < v.Events[i-1].Track {
			t.Fatal("events not grouped by track")
		}
		k := [2]int{e.Track, e.Lane}
		if last, ok := end[k]; ok && e.Start < last {
			t.Fatalf("event %d overlaps the previous one on track %d lane %d", i, e.Track, e.Lane)
		}
		end[k] = e.Start + e.Dur
		if e.Lane >= v.Tracks[e.Track].Lanes {
			t.Fatalf("lane %d of a track with %d lanes", e.Lane, v.Tracks[e.Track].Lanes)
		}
	}
}

// A cap keeps the earliest events and says so.
func TestViewCap(t *testing.T) {
	p := profile(t, "train")
	whole, _ := nsysx.ParseTimeFilter("/")
	v, err := NewView(context.Background(), p, &ViewOptions{Filter: whole, MaxEvents: 500})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Events) != 500 || !strings.Contains(v.Note, "showing the first 500 events") {
		t.Fatalf("%d events, note %q", len(v.Events), v.Note)
	}
	checkLanes(t, v)
}

// The bundle has the HTML view (with the PNG inside it, for front ends that
// run no scripts), the PNG and a text line.
func TestBundle(t *testing.T) {
	b, meta, err := Bundle(context.Background(), profile(t, "sync"), nil)
	if err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(b[MIMEPNG].(string))
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") || meta[MIMEPNG] == nil {
		t.Fatalf("no PNG in the bundle: %v", err)
	}
	h := b[MIMEHTML].(string)
	if !strings.Contains(h, `src="data:image/png;base64,`+b[MIMEPNG].(string)[:40]) || !strings.Contains(h, "function nsysxTimeline") {
		t.Error("the HTML lacks the fallback image or the renderer")
	}
	if regexp.MustCompile(`(?i)(src|href)="https?:`).MatchString(h) || strings.Contains(h, "<script src") {
		t.Error("the view loads something from the network")
	}
	if !strings.Contains(b[MIMEPlain].(string), "kernels") {
		t.Errorf("text %q", b[MIMEPlain])
	}
}

// The renderer runs under Node.js against a stub DOM: it replaces the image
// with a canvas, draws every event of the window, zooms and shows a tooltip.
func TestRendererRuns(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	v, err := NewView(context.Background(), profile(t, "train"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := v.HTML("")
	if err != nil {
		t.Fatal(err)
	}
	scripts := regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(h, -1)
	if len(scripts) != 2 {
		t.Fatalf("%d scripts", len(scripts))
	}
	js := strings.ReplaceAll(stubDOM, "DATA_JSON", strings.ReplaceAll(scripts[0][1], `<\/`, `</`)) + scripts[1][1] + checkJS
	path := filepath.Join(t.TempDir(), "run.js")
	os.WriteFile(path, []byte(js), 0o644)
	out, err := exec.Command(node, path).CombinedOutput()
	if err != nil {
		t.Fatalf("renderer failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok") {
		t.Fatalf("renderer output: %s", out)
	}
}

const stubDOM = `
var calls = {fillRect: 0, fillText: 0}, handlers = {}, created = [];
function ctx() { var c = {}; ["clearRect","fillText","beginPath","moveTo","lineTo","stroke","rect","clip","save","restore","strokeRect","scale"].forEach(function(n){ c[n] = function(){ if (n in calls) calls[n]++; }; });
  c.fillRect = function(){ calls.fillRect++; }; c.fillText = function(){ calls.fillText++; }; return c; }
function el(tag) { var e = {tag: tag, style: {}, children: [], appendChild: function(c){ this.children.push(c); }, clientWidth: 900,
  addEventListener: function(n, f){ handlers[n] = f; }, getContext: function(){ return ctx(); },
  getBoundingClientRect: function(){ return {left: 0, top: 0}; }}; created.push(e); return e; }
var root = el("div"); root.innerHTML = "<img>";
var dataEl = {textContent: JSON.stringify(DATA_JSON)};
var document = {createElement: el, getElementById: function(id){ return id.endsWith("-data") ? dataEl : root; }};
var window = {devicePixelRatio: 2, addEventListener: function(){}};
`

const checkJS = `
if (root.innerHTML !== "" || root.children.length !== 2) { throw new Error("the image was not replaced"); }
var before = calls.fillRect;
if (before < 100) { throw new Error("only " + before + " rectangles drawn"); }
handlers.wheel({deltaY: -500, clientX: 600, clientY: 50, preventDefault: function(){}});
handlers.mousemove({clientX: 600, clientY: 40});
handlers.dblclick({});
if (calls.fillRect <= before) { throw new Error("zoom did not redraw"); }
console.log("ok", before);
`
