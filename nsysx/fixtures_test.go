package nsysx

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Real profiles for tests: testdata/profiles/<name>.sqlite.gz, unpacked once
// per test binary into a shared temporary directory.
var fixtures struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// fixture returns the path of the unpacked profile testdata/profiles/<name>.sqlite.gz
// (for example "sync"), unpacking it on first use. The test fails when
// the file is absent (fails: fixtures are part of the repository).
func fixture(t testing.TB, name string) string {
	t.Helper()
	fixtures.Lock()
	defer fixtures.Unlock()
	if p, ok := fixtures.paths[name]; ok {
		return p
	}
	src := filepath.Join("..", "testdata", "profiles", name+".sqlite.gz")
	in, err := os.Open(src)
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	if fixtures.dir == "" {
		if fixtures.dir, err = os.MkdirTemp("", "nsysx-fixtures-"); err != nil {
			t.Fatal(err)
		}
		fixtures.paths = map[string]string{}
	}
	dst := filepath.Join(fixtures.dir, name+".sqlite")
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		t.Fatalf("fixture %s: %v", name, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	fixtures.paths[name] = dst
	return dst
}

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if fixtures.dir != "" {
		os.RemoveAll(fixtures.dir)
	}
	os.Exit(code)
}
