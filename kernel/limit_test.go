package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

// kernelProcessEnv names the connection file on which TestKernelProcess,
// run in a child process of the test binary, serves a kernel.
const kernelProcessEnv = "NSYSX_TEST_KERNEL_PROCESS"

// TestKernelProcess is not a test: it serves a kernel (the Go engine) in a
// child process when kernelProcessEnv is set, and does nothing otherwise.
func TestKernelProcess(t *testing.T) {
	conn := os.Getenv(kernelProcessEnv)
	if conn == "" {
		return
	}
	eng, err := gointerp.New()
	if err == nil {
		err = kernel.Run(context.Background(), conn, eng)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// head is the first lines of a kernel's stderr (a Go fatal error is
// followed by every goroutine's stack).
func head(s string) string {
	lines := strings.SplitAfterN(s, "\n", 4)
	return strings.Join(lines[:min(3, len(lines))], "")
}

// procStatus reads a size in bytes from /proc/PID/status (VmSize, VmHWM).
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("the kernel process: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// TestOversizedFrameKeepsKernel: a connection that completes the ZMTP
// handshake on any of the five sockets and then declares a frame of 2^40
// bytes is dropped, with one line on the kernel's stderr; the kernel
// process allocates nothing for it, keeps its variables and serves the
// next cell. The kernel runs in a child process: zmq4 v0.17.0 (upstream)
// allocates the declared size, which kills the process (out of memory) or,
// where memory is overcommitted, leaves it waiting for the bytes forever.
func TestOversizedFrameKeepsKernel(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the kernel process's memory")
	}
	p := freePorts(t, 5)
	info := wire.ConnectionInfo{IP: "127.0.0.1", Key: "secret", Transport: "tcp", SignatureScheme: "hmac-sha256",
		ShellPort: p[0], ControlPort: p[1], StdinPort: p[2], IOPubPort: p[3], HBPort: p[4]}
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	conn := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(conn, b, 0o600); err != nil {
		t.Fatal(err)
	}
	proc := exec.Command(os.Args[0], "-test.run=^TestKernelProcess$")
	proc.Env = append(os.Environ(), kernelProcessEnv+"="+conn)
	stderr := &wiretest.Buffer{}
	proc.Stderr = stderr
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	t.Cleanup(func() {
		proc.Process.Kill()
		<-exited
	})
	c, err := wiretest.DialReady(info, timeout)
	if err != nil {
		t.Fatalf("%v; kernel stderr: %s", err, stderr)
	}
	defer c.Close()
	cell := func(code string) string {
		t.Helper()
		res, err := c.Request(wire.Shell, "execute_request", map[string]any{"code": code}, timeout)
		if err != nil {
			t.Fatalf("%q: %v; kernel stderr: %s", code, err, stderr)
		}
		return wiretest.ResultText(t, res)
	}
	if got := cell("x := 21\nx"); got != "21" {
		t.Fatalf("first cell: %q", got)
	}
	pid := proc.Process.Pid
	size0, peak0 := procStatus(t, pid, "VmSize"), procStatus(t, pid, "VmHWM")

	sockets := []struct {
		name, peer string
		port       int
	}{
		{"shell", "DEALER", info.ShellPort}, {"control", "DEALER", info.ControlPort},
		{"stdin", "DEALER", info.StdinPort}, {"iopub", "SUB", info.IOPubPort}, {"heartbeat", "REQ", info.HBPort},
	}
	for _, s := range sockets {
		peer, err := wiretest.RawPeer(info.Addr(s.port), s.peer, timeout)
		if err != nil {
			t.Fatalf("%s: handshake: %v; kernel stderr: %s", s.name, err, head(stderr.String()))
		}
		if _, err := peer.Write(append(wiretest.LongFrameHeader(1<<40), "abc"...)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		closed := wiretest.WaitClosed(peer, timeout)
		peer.Close()
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			t.Fatalf("%s: the kernel process ended (%v); its stderr: %s", s.name, err, head(stderr.String()))
		case <-time.After(100 * time.Millisecond):
		}
		if !closed {
			t.Errorf("%s: the connection was not dropped", s.name)
		}
	}
	if grew := procStatus(t, pid, "VmSize") - size0; grew > 1<<30 {
		t.Errorf("the kernel's address space grew by %d bytes", grew)
	}
	if grew := procStatus(t, pid, "VmHWM") - peak0; grew > 64<<20 {
		t.Errorf("the kernel's peak resident memory grew by %d bytes", grew)
	}
	if got := cell("x * 2"); got != "42" {
		t.Errorf("the cell after: %q, want 42 (the variable kept)", got)
	}
	if err := c.Heartbeat(timeout); err != nil {
		t.Errorf("heartbeat after: %v", err)
	}
	var drops []string
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, "dropped the connection") {
			drops = append(drops, line)
		}
	}
	if len(drops) != len(sockets) {
		t.Errorf("%d lines about dropped connections, want one a socket:\n%s", len(drops), stderr)
	}
	for i, s := range sockets {
		if i < len(drops) && (!strings.Contains(drops[i], s.name+": ") || !strings.Contains(drops[i], "1099511627776 bytes")) {
			t.Errorf("line %q: want the socket %s and the frame's size", drops[i], s.name)
		}
	}
	if _, err := c.Request(wire.Control, "shutdown_request", map[string]any{"restart": false}, timeout); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err // for the cleanup
		if err != nil {
			t.Errorf("the kernel exited with %v; stderr: %s", err, stderr)
		}
	case <-time.After(timeout):
		t.Error("the kernel did not exit after shutdown")
	}
}
