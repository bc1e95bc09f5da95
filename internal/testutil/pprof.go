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
	b, err := os.ReadFile(path)
	if err == nil {
		var prof *profile.Profile
		if prof, err = profile.ParseData(b); err == nil {
			return prof
		}
	}
	t.Fatalf("%s: %v", path, err)
	return nil
}
