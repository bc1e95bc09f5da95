package nsysx

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureDir is the repository's testdata/profiles, seen from package nsysx.
const fixtureDir = "../testdata/profiles"

// gunzipFixture returns the path of testdata/profiles/name. A name ending in
// .gz is decompressed into t.TempDir() and the path of the copy (without .gz)
// is returned; other names are returned as they are.
func gunzipFixture(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(fixtureDir, name)
	if !strings.HasSuffix(name, ".gz") {
		return src
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	dst := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(name), ".gz"))
	out, err := os.Create(dst)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		t.Fatalf("fixture %s: %v", name, err)
	}
	if err := out.Close(); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return dst
}
