package engineproc

import (
	"cmp"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
)

// deathCause says, for "the engine process died: it ...", why the engine
// process ended: from the Go runtime's last words on its stderr (a fatal
// error, an unrecovered panic) or else from its exit status or signal.
func deathCause(err error, stderr string) string {
	fatal := lineAfter(stderr, "fatal error: ")
	switch {
	case fatal == "stack overflow" || strings.Contains(stderr, "goroutine stack exceeds"):
		return "overflowed its stack (fatal error: stack overflow; an infinite recursion?)"
	case strings.Contains(fatal, "out of memory") || strings.Contains(stderr, "runtime: out of memory"):
		return "ran out of memory (fatal error: " + cmp.Or(fatal, "out of memory") + "; an allocation larger than the memory available?)"
	case strings.HasPrefix(fatal, "concurrent map"):
		return "crashed: fatal error: " + fatal + " (a map used by several goroutines without a lock)"
	case fatal != "":
		return "crashed: fatal error: " + fatal
	}
	if p := lineAfter(stderr, "panic: "); p != "" && strings.Contains(stderr, "\ngoroutine ") {
		return "crashed: panic: " + p + " (in a goroutine the kernel does not guard)"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			if ws.Signal() == syscall.SIGKILL {
				return "was killed by SIGKILL (most likely by the system's out-of-memory killer)"
			}
			return "was killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exited with status %d (a library called os.Exit, such as a flag.ExitOnError FlagSet on a bad flag)", ee.ExitCode())
	}
	if err != nil {
		return "ended: " + err.Error()
	}
	return "exited with status 0 (a library called os.Exit(0))"
}

// lineAfter returns the rest of the first line of s that starts with prefix.
func lineAfter(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// fatalLines are the lines of the engine's stderr worth showing with its
// death: from the runtime's fatal error or panic, at most 8 lines, up to
// the blank line before the stacks, else the last 8 lines (a usage message of
// a flag.ExitOnError FlagSet before its os.Exit).
func fatalLines(stderr string) []string {
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "runtime: ") {
			var out []string
			for _, l := range lines[i:min(i+8, len(lines))] {
				if l == "" || strings.HasPrefix(l, "goroutine ") { // the dump starts
					break
				}
				out = append(out, l)
			}
			return out
		}
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines[max(0, len(lines)-8):]
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	mu  sync.Mutex
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
