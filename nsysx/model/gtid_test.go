package model

import "testing"

// TestGlobalTid decodes values built from their parts (the layout the
// export documents: pid in bits 24-47, tid in bits 0-23, a host id above).
func TestGlobalTid(t *testing.T) {
	for _, c := range []struct{ host, pid, tid int64 }{{0, 0, 0}, {1, 12345, 67}, {0, 1<<24 - 1, 1<<24 - 1}, {255, 4242, 1}} {
		g := GlobalTid(c.host<<48 | c.pid<<24 | c.tid)
		if g.PID() != c.pid || g.TID() != c.tid {
			t.Errorf("%#x: pid %d tid %d, want %d %d", int64(g), g.PID(), g.TID(), c.pid, c.tid)
		}
		if g.Process() != GlobalTid(c.host<<48|c.pid<<24) {
			t.Errorf("%#x: process %#x", int64(g), int64(g.Process()))
		}
		if g.Upper() != c.host<<24|c.pid {
			t.Errorf("%#x: upper %#x", int64(g), g.Upper())
		}
	}
}
