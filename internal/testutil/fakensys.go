package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FakeNsys puts a stand-in `nsys` on PATH for `nsys export`. The script
// sets $out to the --output path, counts its calls, then runs body (sh).
// PIDFILE in body is replaced with a file whose lines the test reads with
// Pids. Processes left in PIDFILE are killed when the test ends.
func FakeNsys(t testing.TB, body string) (calls func() int, pidfile string) {
	t.Helper()
	bin := t.TempDir()
	count := filepath.Join(bin, "count")
	pidfile = filepath.Join(bin, "pids")
	script := `#!/bin/sh
[ "$1" = export ] || { echo "unexpected: $*" >&2; exit 3; }
out=""
while [ $# -gt 0 ]; do
  case "$1" in --output) out="$2"; shift;; esac
  shift
done
echo x >> "` + count + `"
` + strings.ReplaceAll(body, "PIDFILE", `"`+pidfile+`"`) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "nsys"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(func() {
		for _, pid := range Pids(pidfile) {
			if Alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return func() int {
		b, _ := os.ReadFile(count)
		return strings.Count(string(b), "x")
	}, pidfile
}

// Pids reads the process ids written to a FakeNsys PIDFILE, one a line.
func Pids(pidfile string) []int {
	b, _ := os.ReadFile(pidfile)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// WaitPids waits up to 20 s for n pids in pidfile.
func WaitPids(t testing.TB, pidfile string, n int) []int {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if p := Pids(pidfile); len(p) >= n {
			return p
		}
	}
	t.Fatalf("the fake nsys did not start %d processes", n)
	return nil
}

// Alive says whether process pid exists and is not a zombie.
func Alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// NoneAlive fails unless every pid is gone within 10 s.
func NoneAlive(t testing.TB, pids []int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		left := 0
		for _, p := range pids {
			if Alive(p) {
				left++
			}
		}
		if left == 0 {
			return
		}
	}
	t.Errorf("processes the fake nsys started are still running: %v", pids)
}
