package analyze

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/model/modeltest"
	"github.com/nsysx/nsysx/nsysx/report"
)

// Hand-built profiles for the rules' edge cases: a source that serves
// tables held in memory, so each case reads as the rows it is made of.

// memTable is one in-memory table (package modeltest).
type memTable = modeltest.MemTable

// fx builds a profile from tables.
type fx struct{ tabs []*memTable }

// table adds a table and returns it for rows.
func (f *fx) table(name string, cols ...string) *memTable {
	t := &memTable{Name: name, Cols: cols}
	f.tabs = append(f.tabs, t)
	return t
}

func (f *fx) profile(t *testing.T) *model.Profile { return modeltest.Profile(t, f.tabs...) }

// gpid makes a globalPid (bit 48 set as in real exports) and gtid a globalTid.
func gpid(pid int64) int64      { return 1<<48 | pid<<24 }
func gtid(pid, tid int64) int64 { return 1<<48 | pid<<24 | tid }

// kernels adds a kernel table with rows (start, end, globalPid, deviceId,
// contextId) and returns the fixture.
func (f *fx) kernels(rows ...[5]any) *fx {
	t := f.table(tKernel, "start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid")
	for i, r := range rows {
		t.Add(r[0], r[1], r[3], r[4], nil, 7, i+1, r[2])
	}
	return f
}

// csvOf renders a result's visible cells as CSV-ish lines (no header, no
// unit conversion), for compact expectations.
func csvOf(r *Result) string {
	var b strings.Builder
	for i := 0; i < r.Len(); i++ {
		for j, c := range r.Visible() {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.Text(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// analyze runs a rule and fails on errors and SKIPPED.
func analyzeRule(t *testing.T, p *model.Profile, spec string) *Result {
	t.Helper()
	r, err := report.Analyze(context.Background(), p, spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if r.Skipped != "" {
		t.Fatalf("%s: SKIPPED: %s", spec, r.Skipped)
	}
	return r
}

func wantRows(t *testing.T, r *Result, want string) {
	t.Helper()
	if got := csvOf(r); got != want {
		t.Errorf("%s:%s rows:\n%s\nwant:\n%s", r.Report, r.Args, got, want)
	}
}
