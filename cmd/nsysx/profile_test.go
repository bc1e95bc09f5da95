package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestProfileCommand runs `nsysx profile` with a stand-in nsys on PATH (the
// real one is exercised on the GPU machine): output streamed, report
// exported once and opened; without nsys, one line and exit 1.
func TestProfileCommand(t *testing.T) {
	bin := t.TempDir()
	script := `#!/bin/sh
cmd=$1; shift
case "$cmd" in
profile) out=""; while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift 2;; -*) shift;; *) break;; esac; done
  "$@"; echo report > "$out.nsys-rep";;
export) out=""; while [ $# -gt 0 ]; do case "$1" in --output) out="$2"; shift 2;; --*) shift 2;; *) shift;; esac; done
  cp "$FAKE_SQLITE" "$out";;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "nsys"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Setenv("FAKE_SQLITE", testutil.Profile(t, "sync"))
	rep := filepath.Join(t.TempDir(), "run1")
	var out, errb bytes.Buffer
	if code := run([]string{"profile", "-o", rep, "--", "echo", "step 1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "step 1") || !strings.Contains(out.String(), "Profile: "+rep+".nsys-rep") {
		t.Fatalf("stdout %q", out.String())
	}
	if _, err := os.Stat(rep + ".sqlite"); err != nil {
		t.Errorf("export: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	out.Reset()
	errb.Reset()
	if code := run([]string{"profile", "--", "true"}, &out, &errb); code != 1 || strings.Count(errb.String(), "\n") != 1 ||
		!strings.Contains(errb.String(), "not on PATH") {
		t.Errorf("without nsys: exit %d, stderr %q", code, errb.String())
	}
	if code := run([]string{"profile", "-t", "cuda"}, &out, &errb); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
}
