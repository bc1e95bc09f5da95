package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

// kernelInstall writes the kernelspec.
func kernelInstall(args []string, stdout, stderr io.Writer) int {
	dir, err := kernelSpecDir(args)
	if err != nil {
		return fail(stderr, "kernel install", err)
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	if err != nil {
		return fail(stderr, "kernel install", fmt.Errorf("finding the nsysx binary: %w", err))
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	cmd, note := kernelCommand(exe, os.Getenv("PATH"))
	if err := kernel.InstallSpec(dir, []string{cmd, "kernel", "-f", "{connection_file}"}); err != nil {
		return fail(stderr, "kernel install", err)
	}
	fmt.Fprintf(stdout, "Installed kernelspec %s (display name \"nsysx (Go)\") in %s:\n", kernelName, dir)
	for _, f := range []string{"kernel.json", "logo-32x32.png", "logo-64x64.png"} {
		fmt.Fprintf(stdout, "  wrote %s\n", filepath.Join(dir, f))
	}
	fmt.Fprintf(stdout, "Jupyter starts: %s kernel -f {connection_file}\n%s\n", cmd, note)
	return 0
}

// kernelCommand is the kernelspec's program: "nsysx", found on PATH by
// Jupyter, when the nsysx on PATH is this binary (so a rebuilt or
// reinstalled nsysx on PATH keeps working); otherwise this binary's
// absolute path, with a note saying what to rerun when it moves.
func kernelCommand(exe, path string) (cmd, note string) {
	if onPath, err := lookPathIn("nsysx", path); err == nil {
		a, errA := os.Stat(onPath)
		b, errB := os.Stat(exe)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return "nsysx", "It runs the nsysx found on Jupyter's PATH (now " + onPath + "); moving or rebuilding it there needs no reinstall."
		}
	}
	return exe, "nsysx is not on PATH (or PATH has another one), so the kernelspec names this binary by its path: if you move or rebuild it elsewhere, rerun `nsysx kernel install` (or put nsysx on PATH first)."
}

// lookPathIn is exec.LookPath over the given PATH value.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return filepath.Abs(p)
		}
	}
	return "", exec.ErrNotFound
}

// kernelSpecDir is where --user, --sys-prefix or --prefix DIR put the spec.
func kernelSpecDir(args []string) (string, error) {
	where, prefix := "--user", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--user" || a == "--sys-prefix":
			where = a
		case a == "--prefix":
			if i+1 >= len(args) {
				return "", usageErr("--prefix needs a directory")
			}
			where, prefix = a, args[i+1]
			i++
		case strings.HasPrefix(a, "--prefix="):
			where, prefix = "--prefix", strings.TrimPrefix(a, "--prefix=")
		default:
			return "", usageErr("unknown flag %s for kernel install (--user, --sys-prefix or --prefix DIR)", a)
		}
	}
	switch where {
	case "--prefix":
		if prefix == "" {
			return "", usageErr("--prefix needs a directory")
		}
		abs, err := filepath.Abs(prefix)
		if err != nil {
			return "", err
		}
		return filepath.Join(abs, "share", "jupyter", "kernels", kernelName), nil
	case "--sys-prefix":
		return filepath.Join(pythonSysPrefix(), "share", "jupyter", "kernels", kernelName), nil
	}
	return filepath.Join(userDataDir(), "jupyter", "kernels", kernelName), nil
}

// userDataDir is $XDG_DATA_HOME or ~/.local/share, as jupyter_core uses on Linux.
func userDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, ".local", "share")
}

// pythonSysPrefix asks Debian's Python (where jupyter is installed) for
// sys.prefix; /usr/local when there is no such Python.
func pythonSysPrefix() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.prefix)").Output()
		cancel()
		if p := strings.TrimSpace(string(out)); err == nil && p != "" {
			return p
		}
	}
	return "/usr/local"
}
