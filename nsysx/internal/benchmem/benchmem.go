// Package benchmem serves the benchmarks: the benchmark profile's path and
// the peak memory of the code a benchmark runs.
package benchmem

import (
	"os"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// File is the benchmark profile: NSYSX_BENCH_FILE, default
// /tmp/train50.sqlite (train tiled 50 times, `make bench-data`); the
// benchmark is skipped when it is absent.
func File(b testing.TB) string {
	f := os.Getenv("NSYSX_BENCH_FILE")
	if f == "" {
		f = "/tmp/train50.sqlite"
	}
	if _, err := os.Stat(f); err != nil {
		b.Skipf("benchmark profile %s not found: make it with `make bench-data` (see README)", f)
	}
	return f
}

// Peak samples, every few milliseconds while it runs, the memory the Go
// runtime holds from the system (mapped, less what it returned: close to
// the process's resident heap), and keeps the largest value.
type Peak struct {
	stop chan struct{}
	wg   sync.WaitGroup
	max  uint64
}

// StartPeak starts sampling.
func StartPeak() *Peak {
	p := &Peak{stop: make(chan struct{})}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			p.max = max(p.max, s[0].Value.Uint64()-s[1].Value.Uint64())
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// Report stops sampling and reports the peak as the benchmark's peak-MB.
func (p *Peak) Report(b *testing.B) {
	close(p.stop)
	p.wg.Wait()
	b.ReportMetric(float64(p.max)/(1<<20), "peak-MB")
}
