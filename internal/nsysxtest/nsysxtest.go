// Package nsysxtest holds test helpers that open and read profiles with the
// nsysx library, shared by the tests of the packages above it (not nsysx's
// own internal tests, which cannot import it).
package nsysxtest

import (
	"sync"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// Open opens a profile that is closed when the test ends, failing the test
// when it cannot be opened.
func Open(t testing.TB, path string) *nsysx.Profile {
	t.Helper()
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

var shared sync.Map // key -> *nsysx.Profile

// Shared opens testdata/profiles/<name> once per key for the whole test
// binary and returns that Profile on every later call with the same key; it
// stays open until the process ends (testutil.Main removes the unpacked
// file). Tests that compare a profile against itself pass two keys to get two
// independent opens of one file.
func Shared(t testing.TB, key, name string) *nsysx.Profile {
	t.Helper()
	if p, ok := shared.Load(key); ok {
		return p.(*nsysx.Profile)
	}
	p, err := nsysx.Open(testutil.Profile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	if old, loaded := shared.LoadOrStore(key, p); loaded {
		p.Close()
		return old.(*nsysx.Profile)
	}
	return p
}

// KernSumTotal is the sum of cuda_gpu_kern_sum's Total Time column.
func KernSumTotal(t testing.TB, p *nsysx.Profile) int64 {
	t.Helper()
	r, err := p.Stats(t.Context(), "cuda_gpu_kern_sum")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for i := 0; i < r.Len(); i++ {
		total += r.Row(i)[1].I
	}
	return total
}
