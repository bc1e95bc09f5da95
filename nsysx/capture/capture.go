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
	"strings"
	"syscall"
	"time"
)

// ErrNoNsys says that no nsys is installed; Hint tells the user what to do.
var ErrNoNsys = errors.New("nsys (Nsight Systems) is not on PATH")

// Hint is what to tell a user without nsys.
const Hint = "install Nsight Systems (https://developer.nvidia.com/nsight-systems) and put its nsys on PATH, " +
	"or analyse a profile recorded elsewhere (nsysx stats FILE, %open FILE)"

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
