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

// FakeCommand puts a stand-in program called name, the sh script body,
// first on PATH for the test and returns its directory.
func FakeCommand(t testing.TB, name, body string) string {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return bin
}

// FakeProfiler puts a stand-in nsys on PATH for `nsys profile`: profile
// runs the command, prints "Generated: REPORT" and writes the -o report;
// export copies the SQLite file export to --output. The real nsys is
// exercised on the GPU machine (README "Benchmarks").
func FakeProfiler(t testing.TB, export string) {
	t.Helper()
	FakeCommand(t, "nsys", `cmd=$1; shift
case "$cmd" in
profile)
  out=""; while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift 2;; -t) shift 2;; -*) shift;; *) break;; esac; done
  "$@"; echo "Generated: $out.nsys-rep"; echo report > "$out.nsys-rep";;
export)
  out=""; while [ $# -gt 0 ]; do case "$1" in --output) out="$2"; shift 2;; --*) shift 2;; *) shift;; esac; done
  cp "`+export+`" "$out";;
esac
`)
}

// FakeNsys puts a stand-in `nsys` on PATH for `nsys export`. The script
// sets $out to the --output path, counts its calls, then runs body (sh).
// PIDFILE in body is replaced with a file whose lines the test reads with
// Pids. Processes left in PIDFILE are killed when the test ends.
func FakeNsys(t testing.TB, body string) (calls func() int, pidfile string) {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	pidfile = filepath.Join(dir, "pids")
	FakeCommand(t, "nsys", `[ "$1" = export ] || { echo "unexpected: $*" >&2; exit 3; }
out=""
while [ $# -gt 0 ]; do
  case "$1" in --output) out="$2"; shift;; esac
  shift
done
echo x >> "`+count+`"
`+strings.ReplaceAll(body, "PIDFILE", `"`+pidfile+`"`)+"\n")
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
