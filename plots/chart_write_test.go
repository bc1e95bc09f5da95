package plots

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// bigPace is pace data of 3 ranks over n iterations, NaN where rank 2
// stops early, for the progress chart's Vega-Lite rows.
func bigPace(n int) *PaceData {
	d := &PaceData{Recipe: "cuda_gpu_kern_pace", Name: "k", Ranks: []string{"0", "1", "2"}, Series: map[string][][]float64{}, Iters: n}
	for mi, m := range append(append([]string{}, paceMetrics...), deltaVariance) {
		for r := range d.Ranks {
			vs := make([]float64, n)
			for i := range vs {
				vs[i] = float64(i*1000+r*7+mi) * 1.25e3
				if r == 2 && i > n/2 {
					vs[i] = math.NaN()
				}
			}
			d.Series[m] = append(d.Series[m], vs)
		}
	}
	return d
}

// The chart files' Vega-Lite JSON is written in chunks of rows
// (writeVegaLite); its bytes are those of encoding the whole spec with its
// rows made up front, as the pace chart's spec held them, and VegaLite's.
func TestWriteVegaLiteChunks(t *testing.T) {
	for _, n := range []int{3, vegaChunk/2 + 1, 3*vegaChunk + 5} {
		d := bigPace(n)
		metrics := append(append([]string{}, paceMetrics...), deltaVariance)
		c := newChart("p", "pace")
		c.vega = paceVega(c, d, metrics)
		// the rows made independently: rank, metric and iteration order
		var rows []map[string]any
		for _, m := range metrics {
			for r, vs := range d.Series[m] {
				for i := 1; i < len(vs); i++ {
					var ms any
					if !math.IsNaN(vs[i]) {
						ms, _ = strconv.ParseFloat(strconv.FormatFloat(vs[i]/1e6, 'f', 6, 64), 64)
					}
					rows = append(rows, map[string]any{"iteration": i, "metric": m, "ms": ms, "rank": d.Ranks[r]})
				}
			}
		}
		spec := map[string]any{}
		for k, v := range c.vega {
			spec[k] = v
		}
		spec["data"] = map[string]any{"values": rows}
		want, err := json.Marshal(spec)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := c.writeVegaLite(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d iterations: writeVegaLite wrote %d bytes, want %d", n, got.Len(), len(want))
		}
		whole, err := c.VegaLite()
		if err != nil || !bytes.Equal(whole, want) {
			t.Errorf("%d iterations: VegaLite %d bytes (%v), want %d", n, len(whole), err, len(want))
		}
		// a plain slice of rows longer than a chunk is written in chunks too
		c.vega = map[string]any{"data": map[string]any{"values": rows}, "mark": "line"}
		want, _ = json.Marshal(c.vega)
		got.Reset()
		if err := c.writeVegaLite(&got); err != nil || !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d rows in a slice: %d bytes (%v), want %d", len(rows), got.Len(), err, len(want))
		}
	}
}

// BenchmarkWritePaceVega writes the progress chart's Vega-Lite JSON of 8
// ranks over 30 000 iterations (the real capture's most frequent kernel
// over 8 reports): the bytes allocated stay far below the file's size.
func BenchmarkWritePaceVega(b *testing.B) {
	d := bigPace(30000)
	d.Ranks = append(d.Ranks, "3", "4", "5", "6", "7")
	for m, vs := range d.Series {
		for len(vs) < len(d.Ranks) {
			vs = append(vs, vs[0])
		}
		d.Series[m] = vs
	}
	metrics := append(append([]string{}, paceMetrics...), deltaVariance)
	c := newChart("p", "pace")
	c.vega = paceVega(c, d, metrics)
	b.ReportAllocs()
	for b.Loop() {
		var n countWriter
		if err := c.writeVegaLite(&n); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(n))
	}
}

// countWriter counts the bytes written to it.
type countWriter int

func (w *countWriter) Write(p []byte) (int, error) { *w += countWriter(len(p)); return len(p), nil }
