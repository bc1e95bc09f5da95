// Package procgroup runs child processes (nsys, `-o @CMD` pipes) in their
// own process group, so that cancelling one stops the child and every
// process it started, not the child alone.
package procgroup

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// WaitDelay is how long a cancelled child gets to exit after SIGTERM
// before it is killed.
const WaitDelay = 3 * time.Second

// Command is exec.CommandContext in a new process group: when ctx is
// done, the whole group gets SIGTERM, and after WaitDelay the child is
// killed. Call Wait through Run (or call Reap after Wait) so that what
// is left of the group is killed too.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGTERM) }
	c.WaitDelay = WaitDelay
	return c
}

// Reap kills what is left of c's process group after a cancelled run
// (children that ignored SIGTERM or outlived the child).
func Reap(ctx context.Context, c *exec.Cmd) {
	if ctx.Err() != nil && c.Process != nil {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}

// CombinedOutput is c.CombinedOutput followed by Reap.
func CombinedOutput(ctx context.Context, c *exec.Cmd) ([]byte, error) {
	out, err := c.CombinedOutput()
	Reap(ctx, c)
	return out, err
}
