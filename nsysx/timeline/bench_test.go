package timeline

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/benchmem"
)

// benchFile is the benchmark profile: NSYSX_BENCH_FILE, default
// /tmp/train50.sqlite (`make bench-data`; train tiled with
// tools/nsys-tile.py).
func benchFile(b *testing.B) string { return benchmem.File(b) }

// peakHeap samples the live heap while fn runs and returns its maximum.
func peakHeap(fn func()) uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return peak.Load()
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWritePerfetto exports the benchmark profile's whole timeline.
// Reported: the trace's size, and the peak live heap against the input's
// size (the writer streams: the heap holds StringIds, the tracks and 8
// bytes per GPU operation, not the events).
func BenchmarkWritePerfetto(b *testing.B) {
	path := benchFile(b)
	st, _ := os.Stat(path)
	for _, gz := range []bool{false, true} {
		name := "json"
		if gz {
			name = "json.gz"
		}
		b.Run(name, func(b *testing.B) {
			var out, peak int64
			for range b.N {
				runtime.GC()
				p, err := nsysx.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				c := &counter{}
				var w io.Writer = c
				var zw *gzip.Writer
				if gz {
					zw, _ = gzip.NewWriterLevel(c, gzip.BestSpeed)
					w = zw
				}
				h := peakHeap(func() {
					if _, err := WritePerfetto(context.Background(), w, p, nil); err != nil {
						b.Fatal(err)
					}
				})
				if zw != nil {
					zw.Close()
				}
				p.Close()
				out, peak = c.n, max(peak, int64(h))
			}
			b.ReportMetric(float64(out)/1e6, "MB-trace")
			b.ReportMetric(float64(peak)/1e6, "MB-peak-heap")
			b.ReportMetric(float64(st.Size())/1e6, "MB-input")
		})
	}
}
