package testutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// ReadJSON decodes the JSON file at path into v; an error fails the test.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// GzProfile is the path of testdata/profiles/<name>.sqlite.gz, the test
// profile as committed (Profile unpacks it).
func GzProfile(name string) string {
	return filepath.Join(Root(), "testdata", "profiles", name+".sqlite.gz")
}
