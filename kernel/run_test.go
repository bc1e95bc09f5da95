package kernel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// yaegiLogs is a cell the interpreter fails to compile after logging
// "nil type" on the standard logger (a multi-value receive at top level).
const yaegiLogs = "ch := make(chan int, 1)\nch <- 1\n_, ok := <-ch"

// TestRunSilencesStandardLogger: the interpreter's log lines do not reach
// the standard logger (the kernel's stderr) while kernel.Run serves, and
// the logger is restored after.
func TestRunSilencesStandardLogger(t *testing.T) {
	logs := &lockedBuffer{}
	prev := log.Writer()
	log.SetOutput(logs)
	defer log.SetOutput(prev)

	// the cell does log when the engine runs outside kernel.Run
	eng, err := gointerp.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Execute(context.Background(), yaegiLogs, kernel.TextOutput{W: &bytes.Buffer{}}); err == nil {
		t.Fatal("the cell compiled: pick another that yaegi logs for")
	}
	if !strings.Contains(logs.String(), "nil type") {
		t.Fatalf("the interpreter logged %q, want its nil type line", logs.String())
	}
	logs.mu.Lock()
	logs.b.Reset()
	logs.mu.Unlock()

	p := freePorts(t, 5)
	info := wire.ConnectionInfo{IP: "127.0.0.1", Key: "secret", ShellPort: p[0], ControlPort: p[1], StdinPort: p[2], IOPubPort: p[3], HBPort: p[4]}
	conn := filepath.Join(t.TempDir(), "kernel.json")
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conn, b, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- kernel.Run(context.Background(), conn, eng) }()
	c, err := wiretest.Dial(info)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WaitReady(timeout); err != nil {
		t.Fatal(err)
	}
	res, err := c.Request(wire.Shell, "execute_request", map[string]any{"code": yaegiLogs}, timeout)
	if err != nil || res.Content()["ename"] != "CompileError" {
		t.Fatalf("cell: %v %v", err, res.Content())
	}
	if got := logs.String(); got != "" {
		t.Errorf("the standard logger got %q while the kernel ran", got)
	}
	if _, err := c.Request(wire.Control, "shutdown_request", map[string]any{}, timeout); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(timeout):
		t.Fatal("kernel.Run did not return")
	}
	if log.Writer() != logs {
		t.Error("the standard logger was not restored")
	}
}
