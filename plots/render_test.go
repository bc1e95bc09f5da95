package plots

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// maxOutput is the most bytes one chart output may take.
const maxOutput = 3 << 20

// allInputs are the real profiles and the external exports.
func allInputs() []string { return append(append([]string{}, testutil.Profiles...), externals...) }

// renderCase is one chart request.
type renderCase struct {
	chart string
	profs []string
	args  []string
}

func (rc renderCase) name() string {
	return rc.chart + "/" + strings.Join(rc.profs, "+") + strings.Join(rc.args, "")
}

// renderCases: every chart on every profile (compare against train), the
// stacked charts on pairs, and windows.
func renderCases() []renderCase {
	var cs []renderCase
	for _, p := range allInputs() {
		for _, ch := range Names() {
			profs := []string{p}
			if ch == "compare" {
				profs = []string{"train", p}
			}
			cs = append(cs, renderCase{chart: ch, profs: profs})
		}
	}
	return append(cs,
		renderCase{"gpu-util", []string{"rank0", "rank1"}, nil},
		renderCase{"gpu-util", []string{"train", "fixed"}, nil},
		renderCase{"nccl", []string{"rank0", "rank1"}, nil},
		renderCase{"nccl", []string{"nsysai_mfu_2gpu_before", "nsysai_mfu_2gpu_after"}, nil},
		renderCase{"compare", []string{"train", "fixed"}, []string{"--by", "nvtx"}},
		renderCase{"nvtx-timeline", []string{"train"}, []string{"--range", "iteration 12"}},
		renderCase{"nvtx-timeline", []string{"rank0"}, []string{"--start", "2s", "--end", "2.2s"}},
		renderCase{"gpu-util", []string{"sync"}, []string{"--bins", "200"}},
		renderCase{"iterations", []string{"train"}, []string{"--range", "forward"}},
	)
}

func (rc renderCase) draw(t testing.TB) *Chart {
	t.Helper()
	d, o, rest, err := Parse(append([]string{rc.chart}, rc.args...))
	if err != nil || len(rest) > 0 {
		t.Fatalf("%s: %v %v", rc.name(), err, rest)
	}
	var ps []*nsysx.Profile
	for _, p := range rc.profs {
		ps = append(ps, profile(t, p))
	}
	c, err := d.Draw(context.Background(), ps, o)
	if err != nil {
		t.Fatalf("%s: %v", rc.name(), err)
	}
	return c
}

// Every chart renders for every profile: a PNG of the announced size that
// is not blank, an SVG that parses, Vega-Lite JSON with the v5 schema; the
// same input gives the same bytes; no output exceeds maxOutput.
func TestRenderAll(t *testing.T) {
	for _, rc := range renderCases() {
		t.Run(rc.name(), func(t *testing.T) {
			t.Parallel()
			c1, c2 := rc.draw(t), rc.draw(t)
			outs := map[string][2][]byte{}
			for _, f := range []string{"png", "svg", "json"} {
				var pair [2][]byte
				for i, c := range []*Chart{c1, c2} {
					pair[i] = render(t, c, f)
				}
				if !bytes.Equal(pair[0], pair[1]) {
					t.Errorf("%s differs between two draws of the same input", f)
				}
				if len(pair[0]) > maxOutput {
					t.Errorf("%s is %d bytes", f, len(pair[0]))
				}
				outs[f] = pair
			}
			checkPNG(t, c1, outs["png"][0])
			checkSVG(t, outs["svg"][0])
			checkVega(t, outs["json"][0])
			if c1.Title == "" || !strings.Contains(c1.Text(), c1.Title) {
				t.Errorf("title %q, text %q", c1.Title, c1.Text())
			}
		})
	}
}

func render(t *testing.T, c *Chart, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := c.Encode(&b, format); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.Bytes()
}

func checkPNG(t *testing.T, c *Chart, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png: %v", err)
	}
	w, h := c.PNGSize()
	if got := img.Bounds(); got.Dx() != w || got.Dy() != h || w != int(math.Ceil(c.Width*DPI*PNGScale)) {
		t.Errorf("png is %dx%d, want %dx%d (%.1fx%.1f in at %d dpi)", got.Dx(), got.Dy(), w, h, c.Width, c.Height, DPI*PNGScale)
	}
	if v, colours := pixelStats(img); v < 100 || colours < 3 {
		t.Errorf("png looks blank: luminance variance %.1f, %d colours", v, colours)
	}
}

// pixelStats returns the variance of the luminance (0..255) over a grid of
// samples, and the number of distinct colours seen.
func pixelStats(img image.Image) (float64, int) {
	b := img.Bounds()
	var sum, sum2, n float64
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum += l
			sum2 += l * l
			n++
		}
	}
	mean := sum / n
	return sum2/n - mean*mean, len(colours)
}

func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root, elems := "", 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			elems++
		}
	}
	if root != "svg" || elems < 5 {
		t.Errorf("svg: root <%s>, %d elements", root, elems)
	}
}

func checkVega(t *testing.T, b []byte) {
	t.Helper()
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatalf("vega-lite: %v", err)
	}
	if spec["$schema"] != vegaSchema {
		t.Errorf("vega-lite $schema %v", spec["$schema"])
	}
	if !bytes.Contains(b, []byte(`"values"`)) {
		t.Errorf("vega-lite without inline data")
	}
}

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
