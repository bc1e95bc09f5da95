package testutil

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// ReadPprof parses the pprof profile (.pb.gz) at path, failing the test when
// it cannot be read or parsed.
func ReadPprof(t testing.TB, path string) *profile.Profile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	prof, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return prof
}
