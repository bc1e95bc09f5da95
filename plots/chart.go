package plots

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"maps"
	"reflect"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DPI is the nominal resolution of a chart (CSS pixels per inch); PNGs are
// drawn at PNGScale times it for HiDPI screens.
const (
	DPI      = 96
	PNGScale = 2
)

// MIME types of a chart's bundle.
const (
	MIMEPNG       = "image/png"
	MIMESVG       = "image/svg+xml"
	MIMEVegaLite  = "application/vnd.vegalite.v5+json"
	MIMEPlainText = "text/plain"
)

// Chart is one drawn chart: the panels that gonum/plot renders to PNG and
// SVG, the Vega-Lite spec of the interactive version where the chart has
// one, and a text summary of the data behind it. A chart whose profile
// lacks the data it needs has Note set and shows that message instead.
type Chart struct {
	Name     string  // registry name, e.g. "kernels"
	Title    string  // headline, e.g. "Top 10 CUDA kernels by total GPU time"
	Subtitle string  // inputs and window
	Footnote string  // how to read the chart
	Note     string  // non-empty when there was nothing to draw: why
	Width    float64 // inches
	Height   float64 // inches

	legend []legendItem
	grid   [][]*plot.Plot // panels, rows of columns
	// colWeights, for a one-row grid, are the columns' shares of the width
	// (default equal).
	colWeights []float64
	vega       map[string]any
	text       string        // the data as text, for text/plain
	textOf     func() string // or the function that writes it, when only a display needs it
	data       any           // the typed data behind the chart (tests read it)
}

// legendItem is one entry of a chart's legend.
type legendItem struct {
	label string
	color color.Color
	line  bool // a line sample instead of a box
}

func newChart(name, title string) *Chart {
	return &Chart{Name: name, Title: title, Width: 10, Height: 6}
}

// noData returns a chart that only says why there is nothing to draw.
func noData(name, title, subtitle, note string) *Chart {
	c := newChart(name, title)
	c.Subtitle, c.Note, c.Height = subtitle, note, 2.5
	c.vega = withSubtitle(vegaBase(title, 700, 60), subtitle)
	c.vega["data"] = map[string]any{"values": []any{map[string]any{"note": truncate(note, 300)}}}
	c.vega["mark"] = map[string]any{"type": "text", "fontSize": 14, "color": hexColor(colGrey)}
	c.vega["encoding"] = map[string]any{"text": map[string]any{"field": "note", "type": "nominal"}}
	return c
}

// HasVegaLite reports whether the chart has an interactive Vega-Lite version.
func (c *Chart) HasVegaLite() bool { return c.vega != nil }

// done sets what a chart function sets last, once the panels are drawn: the
// height in inches, the text summary, the Vega-Lite spec and the typed data.
func (c *Chart) done(height float64, text string, vega map[string]any, data any) (*Chart, error) {
	c.Height, c.text, c.vega, c.data = height, text, vega, data
	return c, nil
}

// PNGSize is the pixel size of the chart's PNG.
func (c *Chart) PNGSize() (w, h int) {
	cv := vgimg.NewWith(vgimg.UseWH(c.size()), vgimg.UseDPI(DPI*PNGScale))
	b := cv.Image().Bounds()
	return b.Dx(), b.Dy()
}

func (c *Chart) size() (vg.Length, vg.Length) {
	return vg.Length(c.Width) * vg.Inch, vg.Length(c.Height) * vg.Inch
}

// PNG writes the chart as a PNG at PNGScale times DPI.
func (c *Chart) PNG(w io.Writer) error { return c.encodePNG(w, png.DefaultCompression) }

// encodePNG draws the chart and encodes it with the given compression.
func (c *Chart) encodePNG(w io.Writer, level png.CompressionLevel) error {
	cv := vgimg.NewWith(vgimg.UseWH(c.size()), vgimg.UseDPI(DPI*PNGScale), vgimg.UseBackgroundColor(color.White))
	if err := c.render(draw.New(cv)); err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: level}
	return enc.Encode(w, cv.Image())
}

// SVG writes the chart as SVG (text as text, fonts not embedded).
func (c *Chart) SVG(w io.Writer) error {
	cv := vgsvg.New(c.size())
	if err := c.render(draw.New(cv)); err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return err
	}
	// Name fallbacks for viewers without the Liberation fonts, written
	// between the pieces of b (not into a copy of it: a chart of many
	// points is tens of megabytes).
	old, fallback := []byte("font-family:Liberation Sans;"), []byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;")
	rest := b.Bytes()
	for {
		i := bytes.Index(rest, old)
		if i < 0 {
			_, err := w.Write(rest)
			return err
		}
		if _, err := w.Write(rest[:i]); err != nil {
			return err
		}
		if _, err := w.Write(fallback); err != nil {
			return err
		}
		rest = rest[i+len(old):]
	}
}

// VegaLite returns the chart's Vega-Lite v5 spec as JSON, or an error when
// the chart has none (see HasVegaLite).
func (c *Chart) VegaLite() ([]byte, error) {
	if c.vega == nil {
		return nil, fmt.Errorf("chart %s has no Vega-Lite version (PNG and SVG only)", c.Name)
	}
	// compact: a chart of many points is megabytes of data rows, and
	// indenting them took longer than encoding them
	return json.Marshal(c.vega)
}

// vegaChunk is the data rows writeVegaLite encodes at once.
const vegaChunk = 4096

// vegaRowsMark stands for the data rows in the spec writeVegaLite encodes
// around them.
const vegaRowsMark = "nsysx:vega-rows:9c41e7"

// writeVegaLite writes VegaLite's bytes to w, the data rows (data.values,
// when a slice) encoded vegaChunk rows at a time: a chart of a million
// points is a hundred megabytes of JSON, which is then never held whole.
// json.Marshal of a slice is its elements' encodings between brackets,
// separated by commas, so the bytes are VegaLite's.
func (c *Chart) writeVegaLite(w io.Writer) error {
	if c.vega == nil {
		_, err := c.VegaLite()
		return err
	}
	data, _ := c.vega["data"].(map[string]any)
	chunks := vegaChunks(data["values"])
	if chunks == nil {
		js, err := c.VegaLite()
		if err == nil {
			_, err = w.Write(js)
		}
		return err
	}
	spec, d := maps.Clone(c.vega), maps.Clone(data)
	d["values"] = vegaRowsMark
	spec["data"] = d
	js, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(js, []byte(`"`+vegaRowsMark+`"`))
	if !ok {
		return fmt.Errorf("chart %s: the Vega-Lite rows were not placed", c.Name)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	// each chunk is "[rows]": the first one's bracket opens the array, a
	// comma stands for each next one's, and the array is closed at the end
	sep := []byte("[")
	err = chunks(vegaChunk, func(rows any) error {
		part, err := json.Marshal(rows)
		if err != nil || len(part) <= 2 {
			return err
		}
		if _, err := w.Write(sep); err != nil {
			return err
		}
		sep = []byte(",")
		_, err = w.Write(part[1 : len(part)-1])
		return err
	})
	if err != nil {
		return err
	}
	closing := "]"
	if sep[0] == '[' { // no rows
		closing = "[]"
	}
	if _, err := io.WriteString(w, closing); err != nil {
		return err
	}
	_, err = w.Write(tail)
	return err
}

// vegaChunks is how a chart's data rows are cut into chunks (yield is
// given n rows at most each time, as a slice json.Marshal takes), nil when
// they are written whole: a slice of at most vegaChunk rows, or anything
// but a slice or rows made as they are written (paceRows).
func vegaChunks(values any) func(n int, yield func(any) error) error {
	if p, ok := values.(paceRows); ok {
		return p.chunks
	}
	rows := reflect.ValueOf(values)
	if rows.Kind() != reflect.Slice || rows.IsNil() || rows.Len() <= vegaChunk {
		return nil
	}
	return func(n int, yield func(any) error) error {
		for lo := 0; lo < rows.Len(); lo += n {
			if err := yield(rows.Slice(lo, min(lo+n, rows.Len())).Interface()); err != nil {
				return err
			}
		}
		return nil
	}
}

// Encode writes the chart as a file of format "png", "svg" or "json" (its
// Vega-Lite spec and a newline).
func (c *Chart) Encode(w io.Writer, format string) error {
	switch format {
	case "png":
		return c.PNG(w)
	case "svg":
		return c.SVG(w)
	case "json":
		js, err := c.VegaLite()
		if err != nil {
			return err
		}
		_, err = w.Write(append(js, '\n'))
		return err
	}
	return fmt.Errorf("unknown chart format %q (png, svg or json)", format)
}

// MIMEBundle returns the chart for Jupyter: image/png (base64), the
// Vega-Lite spec where the chart has one (JupyterLab shows it, static
// exports the PNG), and text/plain with the data as text.
func (c *Chart) MIMEBundle() map[string]any {
	b := map[string]any{MIMEPlainText: c.Text()}
	var png bytes.Buffer
	if err := c.PNG(&png); err != nil {
		b[MIMEPlainText] = c.Text() + "\n(drawing failed: " + err.Error() + ")"
	} else {
		b[MIMEPNG] = base64.StdEncoding.EncodeToString(png.Bytes())
	}
	if js, err := c.VegaLite(); err == nil {
		var v map[string]any
		if json.Unmarshal(js, &v) == nil {
			b[MIMEVegaLite] = v
		}
	}
	return b
}

// MIMEMetadata is the display metadata for the bundle: the PNG's size in
// CSS pixels, so that the HiDPI image shows at its nominal size.
func (c *Chart) MIMEMetadata() map[string]any {
	w, h := c.PNGSize()
	return map[string]any{MIMEPNG: map[string]any{"width": w / PNGScale, "height": h / PNGScale}}
}

// Text is the chart as text: title, subtitle, the data behind it, footnote.
func (c *Chart) Text() string {
	var b strings.Builder
	b.WriteString(c.Title + "\n")
	if c.Subtitle != "" {
		b.WriteString(c.Subtitle + "\n")
	}
	if c.Note != "" {
		b.WriteString(c.Note + "\n")
	}
	text := c.text
	if c.textOf != nil {
		text = c.textOf()
	}
	if text != "" {
		b.WriteString("\n" + text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	if c.Footnote != "" {
		b.WriteString(c.Footnote + "\n")
	}
	return b.String()
}

// String returns the title.
func (c *Chart) String() string { return c.Name + ": " + c.Title }

const margin = vg.Length(12)

// render draws the whole chart: header, legend, panels and footnote.
func (c *Chart) render(dc draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing chart %s: %v", c.Name, r)
		}
	}()
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	area := draw.Crop(dc, margin, -margin, margin, -margin)
	top := area.Max.Y
	titleSty := textStyle(boldFont, 14, colInk)
	top = drawWrapped(area, titleSty, c.Title, top)
	if c.Subtitle != "" {
		top = drawWrapped(area, textStyle(sansFont, 9.5, colGrey), c.Subtitle, top-3)
	}
	if len(c.legend) > 0 {
		top = c.drawLegend(area, top-6)
	}
	bottom := area.Min.Y
	if c.Footnote != "" {
		fs := textStyle(sansFont, 8.5, colGrey)
		lines := wrapText(fs, c.Footnote, area.Max.X-area.Min.X)
		h := vg.Length(len(lines)) * fs.FontExtents().Height
		drawWrapped(area, fs, c.Footnote, bottom+h)
		bottom += h + 4
	}
	body := area
	body.Max.Y, body.Min.Y = top-8, bottom
	if len(c.grid) == 0 || c.Note != "" && len(c.grid) == 0 {
		c.drawNote(body)
		return nil
	}
	if body.Max.Y-body.Min.Y < 40 {
		return fmt.Errorf("chart %s: %.1f in is too short for its panels", c.Name, c.Height)
	}
	cols := len(c.grid[0])
	if len(c.grid) == 1 && len(c.colWeights) == cols {
		x := body.Min.X
		w := body.Max.X - body.Min.X - 24*vg.Length(cols-1)
		for j, p := range c.grid[0] {
			cw := w * vg.Length(c.colWeights[j])
			cell := body
			cell.Min.X, cell.Max.X = x, x+cw
			p.Draw(cell)
			x += cw + 24
		}
		return nil
	}
	tiles := draw.Tiles{Rows: len(c.grid), Cols: cols, PadX: 24, PadY: 14}
	canvases := plot.Align(c.grid, tiles, body)
	for i, row := range c.grid {
		for j, p := range row {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	return nil
}

// drawNote writes the note centred in a light box.
func (c *Chart) drawNote(body draw.Canvas) {
	msg := c.Note
	if msg == "" {
		msg = "nothing to draw"
	}
	sty := textStyle(sansFont, 12, colGrey)
	w := body.Max.X - body.Min.X
	lines := wrapText(sty, msg, w*0.8)
	lh := sty.FontExtents().Height
	h := vg.Length(len(lines))*lh + 24
	mid := (body.Max.Y + body.Min.Y) / 2
	box := vg.Rectangle{Min: vg.Point{X: body.Min.X, Y: mid - h/2}, Max: vg.Point{X: body.Max.X, Y: mid + h/2}}
	body.SetColor(color.RGBA{0xf6, 0xf6, 0xf6, 0xff})
	body.Fill(box.Path())
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	y := mid + h/2 - 12
	for _, l := range lines {
		body.FillText(sty, vg.Point{X: (body.Min.X + body.Max.X) / 2, Y: y}, l)
		y -= lh
	}
}

// drawLegend lays the legend items out left to right, wrapping, below top;
// it returns the new top.
func (c *Chart) drawLegend(area draw.Canvas, top vg.Length) vg.Length {
	sty := textStyle(sansFont, 9.5, colInk)
	sty.YAlign = draw.YCenter
	lh := sty.FontExtents().Height + 3
	sw := vg.Length(14)
	x, y := area.Min.X, top-lh/2
	for _, it := range c.legend {
		w := sw + 4 + sty.Width(it.label) + 16
		if x > area.Min.X && x+w > area.Max.X {
			x, y = area.Min.X, y-lh
		}
		if it.line {
			area.StrokeLine2(draw.LineStyle{Color: it.color, Width: 2}, x, y, x+sw, y)
		} else {
			r := vg.Rectangle{Min: vg.Point{X: x, Y: y - 5}, Max: vg.Point{X: x + sw, Y: y + 5}}
			area.SetColor(it.color)
			area.Fill(r.Path())
			area.SetLineWidth(0.5)
			area.SetColor(colGrey)
			area.Stroke(r.Path())
		}
		area.FillText(sty, vg.Point{X: x + sw + 4, Y: y}, it.label)
		x += w
	}
	return y - lh/2
}

// drawWrapped draws s wrapped to the canvas width with its first line's
// top at top; it returns the bottom of the last line.
func drawWrapped(c draw.Canvas, sty text.Style, s string, top vg.Length) vg.Length {
	lh := sty.FontExtents().Height
	sty.YAlign = draw.YTop
	for _, l := range wrapText(sty, s, c.Max.X-c.Min.X) {
		c.FillText(sty, vg.Point{X: c.Min.X, Y: top}, l)
		top -= lh
	}
	return top
}

// wrapText splits s into lines no wider than w (words longer than a line
// are truncated); explicit newlines are kept.
func wrapText(sty text.Style, s string, w vg.Length) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			for sty.Width(word) > w && len([]rune(word)) > 8 {
				word = truncate(word, len([]rune(word))*9/10)
			}
			cand := word
			if line != "" {
				cand = line + " " + word
			}
			if line != "" && sty.Width(cand) > w {
				out = append(out, line)
				cand = word
			}
			line = cand
		}
		out = append(out, line)
	}
	return out
}
