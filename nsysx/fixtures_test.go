package nsysx

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// fixture returns the path of the unpacked profile testdata/profiles/<name>.sqlite.gz
// (for example "sync"), unpacked once per test binary (testutil.Profile).
// The test fails when the file is absent (fixtures are part of the
// repository).
func fixture(t testing.TB, name string) string {
	return testutil.Profile(t, name)
}

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) {
	testutil.Main(m)
}
