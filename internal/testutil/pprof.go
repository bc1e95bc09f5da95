package testutil

import (
	"testing"

	"github.com/google/pprof/profile"
)

// ReadPprof parses the pprof profile (.pb.gz) at path, failing the test when
// it cannot be read or parsed.
func ReadPprof(t testing.TB, path string) *profile.Profile {
	t.Helper()
	prof, err := profile.ParseData(ReadFile(t, path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return prof
}
