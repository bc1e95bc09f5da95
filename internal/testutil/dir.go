package testutil

import (
	"os"
	"path/filepath"
	"strings"
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

// Links makes a temporary directory with a link to each named test
// profile (Profile), as <name>.sqlite, and returns the links in order;
// "rank0@rank2" is profile rank0 linked as rank2.sqlite. The stem is what
// recipes rank and name their inputs by.
func Links(t testing.TB, names ...string) []string {
	t.Helper()
	dir := t.TempDir()
	out := make([]string, 0, len(names))
	for _, n := range names {
		prof, as, ok := strings.Cut(n, "@")
		if !ok {
			as = prof
		}
		l := filepath.Join(dir, as+".sqlite")
		if err := os.Symlink(Profile(t, prof), l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// ReadFile returns the contents of path; an unreadable file fails the test.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WriteTemp writes data as a read-only file name in a new temporary
// directory (removed when the test ends) and returns its path: a damaged or
// converted copy of a test file.
func WriteTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	return path
}
