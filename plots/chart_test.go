package plots

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// The bundle has the PNG (base64), the Vega-Lite spec as a JSON object and
// the text; the metadata gives the PNG's nominal size.
func TestMIMEBundle(t *testing.T) {
	for _, rc := range []renderCase{
		{"kernels", []string{"train"}, nil},
		{"nvtx-timeline", []string{"train"}, []string{"--range", "iteration 12"}},
		{"nccl", []string{"train"}, nil}, // a note
	} {
		c := rc.draw(t)
		b := c.MIMEBundle()
		raw, err := base64.StdEncoding.DecodeString(b[MIMEPNG].(string))
		if err != nil {
			t.Fatalf("%s: png: %v", rc.name(), err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: png: %v", rc.name(), err)
		}
		vl, ok := b[MIMEVegaLite].(map[string]any)
		if !ok || vl["$schema"] != vegaSchema {
			t.Errorf("%s: vega-lite %T", rc.name(), b[MIMEVegaLite])
		}
		text, _ := b[MIMEPlainText].(string)
		if !strings.HasPrefix(text, c.Title+"\n") || c.Note != "" && !strings.Contains(text, c.Note) {
			t.Errorf("%s: text %q", rc.name(), text)
		}
		md := c.MIMEMetadata()[MIMEPNG].(map[string]any)
		if md["width"].(int)*PNGScale != img.Bounds().Dx() {
			t.Errorf("%s: metadata width %v, png %d px", rc.name(), md["width"], img.Bounds().Dx())
		}
	}
}

// Width and Height options resize the chart.
func TestSizeOptions(t *testing.T) {
	d, _ := Lookup("kernels")
	c, err := d.Draw(context.Background(), []*nsysx.Profile{profile(t, "train")}, &Options{Width: 6, Height: 9})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := c.PNGSize(); w != 6*DPI*PNGScale || h != 9*DPI*PNGScale {
		t.Errorf("png %dx%d", w, h)
	}
	if err := c.PNG(new(bytes.Buffer)); err != nil {
		t.Error(err)
	}
}
