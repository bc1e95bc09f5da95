// Package capture records a new profile with the installed Nsight Systems:
// `nsys profile [flags] -- COMMAND`, streamed, then exported and opened with
// nsysx. It backs `nsysx profile` and the kernel's `%nsys profile`.
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ErrNoNsys says that no nsys is installed; Hint tells the user what to do.
var ErrNoNsys = errors.New("nsys (Nsight Systems) is not on PATH")

// Hint is what to tell a user without nsys.
const Hint = "install Nsight Systems (https://developer.nvidia.com/nsight-systems) and put its nsys on PATH, " +
	"or analyse a profile recorded elsewhere (nsysx stats FILE, %open FILE)"

// Plan is a parsed `profile` command line.
type Plan struct {
	Flags   []string // nsys profile flags as given (with -o added when absent)
	Command []string // the program to profile and its arguments
	Report  string   // the .nsys-rep nsys will write
}

// Parse splits `[nsys profile flags] -- COMMAND...`. Without `--`, every
// argument is the command when none starts with '-'. The report path comes
// from -o/--output (nsys adds .nsys-rep), or is
// nsysx-profile-YYYYMMDD-HHMMSS.nsys-rep in dir.
func Parse(args []string, dir string, now time.Time) (*Plan, error) {
	flags, cmd := splitCommand(args)
	if cmd == nil {
		return nil, fmt.Errorf("no command to profile: use [nsys profile flags] -- COMMAND [ARGS...]")
	}
	p := &Plan{Flags: append([]string(nil), flags...), Command: cmd}
	out, ok, err := outputFlag(flags)
	if err != nil {
		return nil, err
	}
	if !ok {
		out = filepath.Join(dir, "nsysx-profile-"+now.Format("20060102-150405"))
		p.Flags = append(p.Flags, "-o", out)
	}
	if strings.Contains(out, "%") {
		return nil, fmt.Errorf("-o %s: nsysx needs a plain output name to open the report (no %% substitutions)", out)
	}
	if !strings.HasSuffix(out, ".nsys-rep") {
		out += ".nsys-rep"
	}
	p.Report = out
	return p, nil
}

func splitCommand(args []string) (flags, cmd []string) {
	for i, a := range args {
		if a == "--" {
			if i+1 == len(args) {
				return args[:i], nil
			}
			return args[:i], args[i+1:]
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return args, nil
		}
	}
	if len(args) == 0 {
		return nil, nil
	}
	return nil, args
}

// outputFlag finds -o/--output among nsys profile flags.
func outputFlag(flags []string) (string, bool, error) {
	for i, f := range flags {
		switch {
		case f == "-o" || f == "--output":
			if i+1 >= len(flags) {
				return "", false, fmt.Errorf("%s needs a value", f)
			}
			return flags[i+1], true, nil
		case strings.HasPrefix(f, "--output="):
			return strings.TrimPrefix(f, "--output="), true, nil
		}
	}
	return "", false, nil
}

// Nsys finds nsys on PATH (the same one that exports the report).
func Nsys() (string, error) {
	p, err := exec.LookPath("nsys")
	if err != nil {
		return "", ErrNoNsys
	}
	return p, nil
}

// Run runs `nsys profile` for the plan, streaming nsys's and the program's
// output to w. Cancelling ctx stops nsys and everything it started (the
// whole process group). It returns the report's path once nsys wrote it.
func Run(ctx context.Context, p *Plan, w io.Writer) (string, error) {
	nsys, err := Nsys()
	if err != nil {
		return "", err
	}
	args := append([]string{"profile"}, p.Flags...)
	args = append(args, p.Command...)
	fmt.Fprintf(w, "$ %s %s\n", nsys, strings.Join(args, " "))
	cmd := exec.Command(nsys, args...)
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting nsys: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		return "", ctx.Err()
	}
	if err != nil {
		return "", fmt.Errorf("nsys profile failed: %w", err)
	}
	if _, err := os.Stat(p.Report); err != nil {
		return "", fmt.Errorf("nsys profile wrote no %s", p.Report)
	}
	return p.Report, nil
}
