package parquetio

import "testing"

// TestSortEncodingStatsMalformed: a truncated footer is an error, not a
// panic.
func TestSortEncodingStatsMalformed(t *testing.T) {
	for _, b := range [][]byte{{0x4c}, {0x49, 0x1c}, {0x49, 0x1c, 0x19, 0xfc}} {
		if err := sortEncodingStats(b); err == nil {
			t.Errorf("% x: no error", b)
		}
	}
}
