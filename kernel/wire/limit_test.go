package wire_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

// dropLines counts the lines of logs that say a socket dropped a peer.
func dropLines(logs *wiretest.Buffer, socket string) int {
	return strings.Count(logs.String(), socket+": dropped the connection")
}

// A request over the limit (wire.Options.MaxMessageSize) costs its sender
// the connection, once, and nothing else: the socket serves the other
// peers, the sender's other sockets keep working.
func TestOversizedRequestDropsItsPeer(t *testing.T) {
	const limit = 64 << 10
	srv, c, h, logs, stop := startServerWith(t, "k", wire.Options{MaxMessageSize: limit})
	defer stop()
	big := strings.Repeat("x", limit)
	calls := h.calls.Load()
	// The kernel may drop the sender as soon as the frame sizes exceed the
	// limit, before the client has written its last frame: then the send
	// fails on the closed connection, which is the behaviour under test.
	if _, err := c.Send(wire.Shell, "echo_request", map[string]any{"text": big}); err != nil {
		t.Logf("send over the limit: %v", err)
	}
	if _, err := c.Recv(wire.Shell, timeout/10); err == nil {
		t.Error("a reply to a request over the limit")
	}
	if n := dropLines(logs, "shell"); n != 1 {
		t.Errorf("%d lines about dropping the shell peer, want 1:\n%s", n, logs)
	}
	if n := h.calls.Load() - calls; n != 0 {
		t.Errorf("the handler ran %d times for the request over the limit", n)
	}
	res, err := c.Request(wire.Control, "echo_request", map[string]any{"text": "control"}, timeout)
	if err != nil || res.Content()["status"] != "ok" {
		t.Errorf("the sender's control socket: %v", err)
	}
	other, err := wiretest.DialReady(srv.Info(), timeout)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	text := strings.Repeat("y", limit/2)
	res, err = other.Request(wire.Shell, "echo_request", map[string]any{"text": text}, timeout)
	if err != nil || res.Content()["echo"].(map[string]any)["text"] != text {
		t.Errorf("another peer's request under the limit: %v", err)
	}
}

// NSYSX_KERNEL_MAX_MESSAGE sets the limit when the options do not; a value
// that is not a size, or too small, is an error of one line naming it.
func TestMaxMessageEnv(t *testing.T) {
	for _, v := range []string{"abc", "-1", "1.5MiB", "65535", "63KiB", "9999999999GiB", "256 MB"} {
		t.Setenv(wire.MaxMessageEnv, v)
		srv, err := wire.Listen(wire.ConnectionInfo{IP: "127.0.0.1", Key: "k"}, wire.Options{})
		if err == nil {
			srv.Close()
			t.Errorf("%s=%q accepted", wire.MaxMessageEnv, v)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, wire.MaxMessageEnv+"=") || strings.Contains(msg, "\n") {
			t.Errorf("%q: error %q", v, msg)
		}
	}
	// a frame of 100 KiB: dropped under 64KiB (65536 and 64KiB alike),
	// read under the default and 1MiB, and under the options' 1 MiB that
	// come before the environment's 64KiB
	for _, c := range []struct {
		env  string
		opt  int64
		drop bool
	}{{"64KiB", 0, true}, {"65536", 0, true}, {"", 0, false}, {"1MiB", 0, false}, {"64KiB", 1 << 20, false}} {
		t.Setenv(wire.MaxMessageEnv, c.env)
		srv, _, _, logs, stop := startServerWith(t, "k", wire.Options{MaxMessageSize: c.opt})
		peer, err := wiretest.RawPeer(srv.Info().Addr(srv.Info().ShellPort), "DEALER", timeout)
		if err != nil {
			t.Fatal(err)
		}
		frame := append(wiretest.LongFrameHeader(100<<10), make([]byte, 100<<10)...)
		if _, err := peer.Write(frame); err != nil {
			t.Fatal(err)
		}
		dropped := wiretest.WaitClosed(peer, timeout/10)
		peer.Close()
		if dropped != c.drop || (dropLines(logs, "shell") == 1) != c.drop {
			t.Errorf("env %q, option %d: dropped %v, want %v; log:\n%s", c.env, c.opt, dropped, c.drop, logs)
		}
		stop()
	}
}

// A peer that connects and never completes the handshake does not keep
// others from connecting to the same socket, and is dropped after the
// handshake's time limit.
func TestStalledHandshake(t *testing.T) {
	srv, _, _, _, stop := startServerWith(t, "k", wire.Options{})
	defer stop()
	info := srv.Info()
	var stalled []net.Conn
	for _, port := range []int{info.ShellPort, info.ControlPort, info.StdinPort, info.IOPubPort, info.HBPort} {
		c, err := net.Dial("tcp", info.Addr(port))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		stalled = append(stalled, c)
	}
	dialed := make(chan error, 1)
	go func() {
		c, err := wiretest.DialReady(info, timeout)
		if err == nil {
			c.Close()
		}
		dialed <- err
	}()
	select {
	case err := <-dialed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(timeout):
		t.Fatal("a client could not connect while other connections stalled their handshakes")
	}
	for i, c := range stalled {
		if !wiretest.WaitClosed(c, timeout) {
			t.Errorf("stalled connection %d not dropped", i)
		}
	}
}
