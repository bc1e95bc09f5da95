package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestKernelInstallSpec(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "kernel", "install", "--prefix", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	specDir := filepath.Join(dir, "share", "jupyter", "kernels", "nsysx")
	if !strings.Contains(out, specDir) {
		t.Errorf("output %q", out)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		DisplayName   string   `json:"display_name"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	testutil.ReadJSON(t, filepath.Join(specDir, "kernel.json"), &spec)
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	for _, f := range []string{"kernel.json", "logo-32x32.png"} {
		if !strings.Contains(out, filepath.Join(specDir, f)) {
			t.Errorf("install does not say it wrote %s: %q", f, out)
		}
	}
	if !strings.Contains(out, "rerun `nsysx kernel install`") {
		t.Errorf("install with nsysx off PATH does not say what to rerun: %q", out)
	}
	if len(spec.Argv) != 4 || spec.Argv[0] != exe || strings.Join(spec.Argv[1:], " ") != "kernel -f {connection_file}" ||
		spec.DisplayName != "nsysx (Go)" || spec.Language != "go" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json %+v", spec)
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(specDir, logo)); err != nil {
			t.Error(err)
		}
	}
	// With this binary on PATH as nsysx, the spec names "nsysx".
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.Symlink(exe, filepath.Join(bin, "nsysx")); err != nil {
		t.Fatal(err)
	}
	if cmd, note := kernelCommand(exe, bin+string(os.PathListSeparator)+"/nonexistent"); cmd != "nsysx" || !strings.Contains(note, "PATH") {
		t.Errorf("on PATH: %q %q", cmd, note)
	}
	if cmd, _ := kernelCommand(exe, "/nonexistent"); cmd != exe {
		t.Errorf("off PATH: %q", cmd)
	}
	// --user honours XDG_DATA_HOME; --sys-prefix asks Python for sys.prefix
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg"))
	if _, errOut, code := runCLI(t, "kernel", "install", "--user"); code != 0 {
		t.Errorf("--user: %s", errOut)
	} else if _, err := os.Stat(filepath.Join(dir, "xdg", "jupyter", "kernels", "nsysx", "kernel.json")); err != nil {
		t.Error(err)
	}
	if d, err := kernelSpecDir([]string{"--sys-prefix"}); err != nil || !strings.HasSuffix(d, "/share/jupyter/kernels/nsysx") {
		t.Errorf("--sys-prefix: %q %v", d, err)
	}
	for _, args := range [][]string{{"kernel", "install", "--prefix"}, {"kernel", "install", "--nope"}, {"kernel", "-x"}, {"kernel"}} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
