// Package testutil finds the repository's test data: real profiles (gzipped,
// unpacked once per test binary) and the golden outputs nsys wrote for them.
package testutil

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Profiles are the seven real captures with goldens.
var Profiles = []string{"bt", "cnn", "fixed", "rank0", "rank1", "sync", "train"}

// Root is the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var unpacked struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// Profile returns the path of testdata/profiles/<name>.sqlite, unpacked from
// its .gz into a temporary directory on first use. A missing fixture fails
// the test.
func Profile(t testing.TB, name string) string {
	return Unpack(t, filepath.Join("testdata", "profiles", name+".sqlite.gz"))
}

// External returns an unpacked testdata/external/<name>.sqlite.
func External(t testing.TB, name string) string {
	return Unpack(t, filepath.Join("testdata", "external", name+".sqlite.gz"))
}

// Unpack gunzips a repository file (path relative to the root) once and
// returns the unpacked path.
func Unpack(t testing.TB, rel string) string {
	t.Helper()
	unpacked.Lock()
	defer unpacked.Unlock()
	if p, ok := unpacked.paths[rel]; ok {
		return p
	}
	b, err := os.ReadFile(filepath.Join(Root(), rel))
	if err != nil {
		t.Fatalf("test data: %v", err)
	}
	data, err := gunzip(b)
	if err != nil {
		t.Fatalf("test data %s: %v", rel, err)
	}
	if unpacked.dir == "" {
		if unpacked.dir, err = os.MkdirTemp("", "nsysx-testdata-"); err != nil {
			t.Fatal(err)
		}
		unpacked.paths = map[string]string{}
	}
	name := filepath.Base(rel)
	name = name[:len(name)-len(".gz")]
	dst := filepath.Join(unpacked.dir, filepath.Base(filepath.Dir(rel))+"-"+name)
	if err := os.WriteFile(dst, data, 0o444); err != nil {
		t.Fatal(err)
	}
	unpacked.paths[rel] = dst
	return dst
}

// Main runs the tests, removes the unpacked profiles and exits: a
// package's whole TestMain when it needs nothing else.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// MainTemp is Main with $TMPDIR a new directory (inherited by the
// processes the tests start), removed with everything in it at the end: for
// tests whose libraries leave temporary files of their own (Beam's
// loopback runner writes beamloopbackworker-* and never removes them).
func MainTemp(m *testing.M) {
	dir, err := os.MkdirTemp("", "nsysx-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	Cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

// BenchFile is the benchmark profile: $NSYSX_BENCH_FILE, default
// /tmp/train50.sqlite (train tiled 50 times with tools/nsys-tile.py: `make
// bench-data`, README "Benchmarks"). The benchmark skips without it.
func BenchFile(b *testing.B) string {
	f := os.Getenv("NSYSX_BENCH_FILE")
	if f == "" {
		f = "/tmp/train50.sqlite"
	}
	if _, err := os.Stat(f); err != nil {
		b.Skipf("benchmark profile %s not found: make it with `make bench-data` (see README)", f)
	}
	return f
}

// Cleanup removes unpacked files; call it from TestMain after m.Run.
func Cleanup() {
	unpacked.Lock()
	defer unpacked.Unlock()
	if unpacked.dir != "" {
		os.RemoveAll(unpacked.dir)
		unpacked.dir = ""
		unpacked.paths = nil
	}
}

// Golden reads testdata/golden/<profile>/<name>, or its .gz. ok is false when
// neither exists.
func Golden(t testing.TB, profile, name string) (string, bool) {
	t.Helper()
	p := filepath.Join(Root(), "testdata", "golden", profile, name)
	if b, err := os.ReadFile(p); err == nil {
		return string(b), true
	}
	b, err := os.ReadFile(p + ".gz")
	if err != nil {
		return "", false
	}
	data, err := gunzip(b)
	if err != nil {
		t.Fatalf("golden %s: %v", p, err)
	}
	return string(data), true
}

func gunzip(b []byte) ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// Diff describes the first differing line of two texts, or "" when equal.
func Diff(got, want string) string {
	if got == want {
		return ""
	}
	gl, wl := splitLines(got), splitLines(want)
	for i := 0; i < max(len(gl), len(wl)); i++ {
		g, w := "<end>", "<end>"
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return "line " + itoa(i+1) + ":\n got: " + quote(g) + "\nwant: " + quote(w)
		}
	}
	return "texts differ in line endings"
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte([]byte(s), '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
	return out
}

func itoa(i int) string { return fmtInt(i) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

func quote(s string) string {
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return "`" + s + "`"
}
