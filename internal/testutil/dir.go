package testutil

import (
	"os"
	"testing"
)

// DirNames lists the names in dir, sorted (os.ReadDir sorts them); an
// unreadable dir fails the test.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}
