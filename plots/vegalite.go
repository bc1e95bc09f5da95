package plots

import (
	"math"
)

// vegaSchema is the Vega-Lite version the specs follow (JupyterLab's
// vega5-extension renders application/vnd.vegalite.v5+json).
const vegaSchema = "https://vega.github.io/schema/vega-lite/v5.json"

// vegaBase starts a spec: schema, title, width (and height when > 0),
// nsysx's fonts.
func vegaBase(title string, width, height int) map[string]any {
	spec := map[string]any{
		"$schema": vegaSchema,
		"title":   map[string]any{"text": title, "anchor": "start", "fontSize": 15},
		"width":   width,
		"config": map[string]any{
			"font": "Liberation Sans, Arial, Helvetica, sans-serif",
			"view": map[string]any{"stroke": nil},
			"axis": map[string]any{"labelFontSize": 11, "titleFontSize": 12},
		},
	}
	if height > 0 {
		spec["height"] = height
	}
	return spec
}

// withSubtitle adds a subtitle to a spec's title.
func withSubtitle(spec map[string]any, sub string) map[string]any {
	if t, ok := spec["title"].(map[string]any); ok && sub != "" {
		t["subtitle"] = sub
	}
	return spec
}

// merge returns a copy of a with b's keys added.
func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// zoomX is the "params" of a chart that zooms and pans along x.
func zoomX() []any {
	return []any{map[string]any{"name": "zoom", "select": map[string]any{"type": "interval", "encodings": []any{"x"}}, "bind": "scales"}}
}

// round6 rounds to 6 significant decimals so that the JSON stays short;
// NaN and infinities become 0 (JSON has no NaN).
func round6(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*1e6) / 1e6
}

// nullable returns nil for NaN (a JSON null), else round6(v).
func nullable(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return round6(v)
}
