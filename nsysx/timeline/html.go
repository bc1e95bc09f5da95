package timeline

import (
	"bytes"
	"context"
	_ "embed" // the renderer script
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strings"
	"sync/atomic"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

//go:embed timeline.js
var rendererJS string

// MIME types of a bundle.
const (
	MIMEHTML  = "text/html"
	MIMEPNG   = "image/png"
	MIMEPlain = "text/plain"
)

// Data is the View as the renderer reads it: times in ns relative to T0,
// events as flat rows of seven integers (track, lane, start, duration,
// name, kind, colour or -1), flows as (API event, GPU event) pairs.
func (v *View) Data() map[string]any {
	t0, t1 := v.Start, v.End
	if len(v.Events) > 0 && (t0 == math.MinInt64 || t1 == math.MaxInt64) {
		t0, t1 = math.MaxInt64, math.MinInt64
		for _, e := range v.Events {
			t0, t1 = min(t0, e.Start), max(t1, e.Start+e.Dur)
		}
	}
	ev := make([]int64, 0, 7*len(v.Events))
	var flows []int
	domains := map[string]string{}
	for i, e := range v.Events {
		ev = append(ev, int64(e.Track), int64(e.Lane), e.Start-t0, e.Dur, int64(e.Name), int64(e.Kind), e.Color)
		for _, to := range e.FlowTo {
			flows = append(flows, i, to)
		}
		if e.Domain != "" {
			domains[fmt.Sprint(i)] = e.Domain
		}
	}
	tracks := make([][]any, len(v.Tracks))
	for i, t := range v.Tracks {
		tracks[i] = []any{t.Process, t.Thread, t.GPU, t.Lanes}
	}
	return map[string]any{"title": v.Title, "window": v.Window, "note": v.Note, "t0": t0, "origin": 0,
		"span": max(t1-t0, 1), "tracks": tracks, "names": v.Names, "ev": ev, "flows": append([]int{}, flows...), "domains": domains}
}

var viewSeq atomic.Int64

// HTML is the interactive view: a self-contained block (inline script and
// data, no network) that draws on a canvas where scripts run, and shows
// pngBase64 (a static image of the window) where they do not.
func (v *View) HTML(pngBase64 string) (string, error) {
	js, err := json.Marshal(v.Data())
	if err != nil {
		return "", err
	}
	id := fmt.Sprintf("nsysx-timeline-%d", viewSeq.Add(1))
	data := strings.ReplaceAll(string(js), "</", `<\/`)
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="nsysx-timeline" id="%s">`, id)
	fmt.Fprintf(&b, `<div style="font:12px sans-serif">%s — %s</div>`, html.EscapeString(v.Title), html.EscapeString(v.Window))
	if pngBase64 != "" {
		fmt.Fprintf(&b, `<img alt="timeline" style="max-width:100%%" src="data:image/png;base64,%s"/>`, pngBase64)
	}
	fmt.Fprintf(&b, "</div>\n<script type=\"application/json\" id=\"%s-data\">%s</script>\n", id, data)
	fmt.Fprintf(&b, "<script>\n%s\n(function(){var r=document.getElementById(%q);"+
		"var d=JSON.parse(document.getElementById(%q).textContent);nsysxTimeline(r,d);})();\n</script>\n",
		rendererJS, id, id+"-data")
	return b.String(), nil
}

// Text is the view in a few lines.
func (v *View) Text() string {
	counts := map[Kind]int{}
	for _, e := range v.Events {
		counts[e.Kind]++
	}
	graphs := ""
	if n := counts[KindGraph]; n > 0 {
		graphs = fmt.Sprintf(", %d CUDA graph executions", n)
	}
	s := fmt.Sprintf("timeline of %s, %s: %d tracks, %d events (%d CUDA API, %d kernels%s, %d memcpy/memset, %d NVTX)",
		v.Title, v.Window, len(v.Tracks), len(v.Events), counts[KindAPI], counts[KindKernel], graphs,
		counts[KindMemcpy]+counts[KindMemset], counts[KindNVTX]+counts[KindNVTXAsync]+counts[KindNVTXMark])
	if v.Note != "" {
		s += "\n" + v.Note
	}
	return s
}

// Bundle makes the notebook display of a window of p: the interactive HTML
// view, a PNG of the same window (the plots nvtx-timeline chart) for front
// ends that do not run scripts, and a text summary.
func Bundle(ctx context.Context, p *nsysx.Profile, o *ViewOptions) (map[string]any, map[string]any, error) {
	v, err := NewView(ctx, p, o)
	if err != nil {
		return nil, nil, err
	}
	po := &plots.Options{}
	if v.Filter != nil && v.Filter.NVTX != "" {
		po.Range = v.Filter.NVTX
	} else {
		if v.Start > math.MinInt64 {
			po.Start = v.Start
		}
		if v.End < math.MaxInt64 {
			po.End = v.End
		}
	}
	var png string
	meta := map[string]any{}
	if c, err := plots.NVTXTimeline(ctx, p, po); err == nil {
		var buf bytes.Buffer
		if c.PNG(&buf) == nil {
			png = base64.StdEncoding.EncodeToString(buf.Bytes())
			meta = c.MIMEMetadata()
		}
	}
	h, err := v.HTML(png)
	if err != nil {
		return nil, nil, err
	}
	b := map[string]any{MIMEHTML: h, MIMEPlain: v.Text()}
	if png != "" {
		b[MIMEPNG] = png
	}
	return b, meta, nil
}
