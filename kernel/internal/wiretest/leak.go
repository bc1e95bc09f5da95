package wiretest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Leaked returns the stacks of goroutines running code of the kernel
// packages (zmq4's copy in kernel/wire/third_party among them), other than
// test goroutines.
func Leaked() []string {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	var out []string
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "wiretest.Leaked") {
			continue
		}
		if strings.Contains(g, "github.com/nsysx/nsysx/kernel") {
			out = append(out, g)
		}
	}
	return out
}

// CheckNoLeaks fails t if kernel or zmq4 goroutines are still running
// after a grace period.
func CheckNoLeaks(t testing.TB) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if left = Leaked(); len(left) == 0 {
			return
		}
	}
	t.Errorf("%d goroutines leaked:\n%s", len(left), strings.Join(left, "\n\n"))
}
