package wire_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

const timeout = 10 * time.Second

// echoHandler answers kernel_info, echoes "echo_request", asks for input on
// "ask_request", panics on "panic_request" and ignores everything else.
type echoHandler struct {
	calls atomic.Int32
}

func (h *echoHandler) Handle(ctx context.Context, r *wire.Request) {
	h.calls.Add(1)
	switch r.Msg.Type() {
	case "kernel_info_request":
		r.Reply(map[string]any{"status": "ok", "protocol_version": wire.ProtocolVersion})
	case "echo_request":
		var c map[string]any
		_ = r.Msg.DecodeContent(&c)
		r.Publish(wire.Stream{Name: "stdout", Text: "hello"})
		r.Reply(map[string]any{"status": "ok", "echo": c})
	case "ask_request":
		v, err := r.Input(ctx, "name? ", false)
		if err != nil {
			r.Reply(wire.NewErrorReply("Input", err.Error()))
			return
		}
		r.Reply(map[string]any{"status": "ok", "value": v})
	case "panic_request":
		panic("handler bug")
	case "shutdown_request":
		r.Reply(map[string]any{"status": "ok", "restart": false})
		r.Shutdown()
	}
}

func startServer(t *testing.T, key string) (*wiretest.Client, *echoHandler, *wiretest.Buffer, func()) {
	t.Helper()
	_, c, h, logs, stop := startServerWith(t, key, wire.Options{})
	return c, h, logs, stop
}

// startServerWith is startServer with opts (their Log is replaced) that
// also returns the server.
func startServerWith(t *testing.T, key string, opts wire.Options) (*wire.Server, *wiretest.Client, *echoHandler, *wiretest.Buffer, func()) {
	t.Helper()
	logs := &wiretest.Buffer{}
	opts.Log = logs
	srv, err := wire.Listen(wire.ConnectionInfo{IP: "127.0.0.1", Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	h := &echoHandler{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, h) }()
	c, err := wiretest.Dial(srv.Info())
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := c.WaitReady(timeout); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		cancel()
		select {
		case <-done:
		case <-time.After(timeout):
			t.Error("Serve did not return")
		}
		c.Close()
		wiretest.CheckNoLeaks(t)
	}
	return srv, c, h, logs, stop
}

func TestServerRoundTrip(t *testing.T) {
	c, _, _, stop := startServer(t, "k3y")
	defer stop()
	res, err := c.Request(wire.Shell, "echo_request", map[string]any{"x": 1}, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reply.Type() != "echo_reply" || res.Content()["status"] != "ok" {
		t.Errorf("reply %s %s", res.Reply.Type(), res.Reply.Content)
	}
	var types []string
	for _, m := range res.IOPub {
		types = append(types, m.Type())
	}
	if got := strings.Join(types, ","); got != "status,stream,status" {
		t.Errorf("iopub = %s", got)
	}
	if res.Reply.Header.Session == c.Session || res.Reply.Header.Version != "5.4" || res.Reply.Header.Date == "" {
		t.Errorf("reply header %+v", res.Reply.Header)
	}
	if err := c.Heartbeat(timeout); err != nil {
		t.Error(err)
	}
	// control has its own loop and its own busy/idle
	res, err = c.Request(wire.Control, "kernel_info_request", map[string]any{}, timeout)
	if err != nil || res.Reply.Type() != "kernel_info_reply" {
		t.Fatalf("control: %v", err)
	}
}

func TestUnknownAndPanickingHandlersStillReply(t *testing.T) {
	c, _, logs, stop := startServer(t, "k")
	defer stop()
	for _, typ := range []string{"nonsense_request", "panic_request"} {
		res, err := c.Request(wire.Shell, typ, map[string]any{}, timeout)
		if err != nil {
			t.Fatal(err)
		}
		if res.Content()["status"] != "error" || !strings.HasSuffix(res.Reply.Type(), "_reply") {
			t.Errorf("%s: reply %s %s", typ, res.Reply.Type(), res.Reply.Content)
		}
	}
	if !strings.Contains(logs.String(), "handler bug") {
		t.Errorf("panic not logged: %s", logs.String())
	}
}

func TestBadSignaturesAreDropped(t *testing.T) {
	c, h, logs, stop := startServer(t, "right-key")
	defer stop()
	before := h.calls.Load()
	forger := wire.NewSigner("wrong-key")
	hdr := wire.Header{MsgID: wire.NewID(), Session: "x", MsgType: "echo_request", Version: "5.4"}
	forged, _ := forger.Encode(nil, hdr, nil, nil, map[string]any{})
	missing, _ := wire.NewSigner("").Encode(nil, hdr, nil, nil, map[string]any{})
	for _, f := range [][][]byte{forged, missing} {
		if err := c.SendRaw(wire.Shell, f); err != nil {
			t.Fatal(err)
		}
		if err := c.SendRaw(wire.Control, f); err != nil {
			t.Fatal(err)
		}
	}
	// malformed multipart messages
	for _, f := range [][][]byte{
		{[]byte("garbage")},
		{[]byte(wire.Delimiter)},
		{[]byte(wire.Delimiter), []byte("sig"), []byte("{")},
		{[]byte(wire.Delimiter), []byte(c.Signer.Sign([]byte("{"), []byte("{}"), []byte("{}"), []byte("{}"))), []byte("{"), []byte("{}"), []byte("{}"), []byte("{}")},
		{{}, {}, {}, {}, {}, {}, {}},
	} {
		if err := c.SendRaw(wire.Shell, f); err != nil {
			t.Fatal(err)
		}
	}
	// the kernel still answers, and the dropped messages reached no handler
	res, err := c.Request(wire.Shell, "echo_request", map[string]any{}, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reply.Type() != "echo_reply" {
		t.Errorf("reply %s", res.Reply.Type())
	}
	if got := h.calls.Load() - before; got != 1 {
		t.Errorf("handler called %d times, want 1", got)
	}
	// the control channel is served on its own goroutine: its drops may be
	// logged after the shell's echo reply
	if n := logCount(logs.String, "bad or missing signature", 4); n != 4 {
		t.Errorf("%d signature drops logged, want 4:\n%s", n, logs.String())
	}
	if n := logCount(logs.String, "dropped message", 9); n != 9 {
		t.Errorf("%d drops logged, want 9:\n%s", n, logs.String())
	}
}

// logCount counts sub in the log, waiting up to 5 s for it to reach want.
func logCount(log func() string, sub string, want int) int {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if n := strings.Count(log(), sub); n >= want || time.Now().After(deadline) {
			return n
		}
	}
}

func TestInputRequest(t *testing.T) {
	c, _, _, stop := startServer(t, "k")
	defer stop()
	id, err := c.Send(wire.Shell, "ask_request", map[string]any{"allow_stdin": true})
	if err != nil {
		t.Fatal(err)
	}
	req, err := c.Recv("stdin", timeout)
	if err != nil {
		t.Fatal(err)
	}
	if req.Type() != "input_request" || req.ParentHeader().MsgID != id {
		t.Fatalf("got %s parent %s", req.Type(), req.Parent)
	}
	if err := c.SendReply(req, "input_reply", map[string]any{"value": "Ada"}); err != nil {
		t.Fatal(err)
	}
	res, err := c.Collect(wire.Shell, id, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content()["value"] != "Ada" {
		t.Errorf("reply %s", res.Reply.Content)
	}
	res, err = c.Request(wire.Shell, "ask_request", map[string]any{"allow_stdin": false}, timeout)
	if err != nil || res.Content()["status"] != "error" {
		t.Errorf("allow_stdin false: %v %v", err, res.Content())
	}
}

func TestShutdownFromHandler(t *testing.T) {
	logs := &wiretest.Buffer{}
	srv, err := wire.Listen(wire.ConnectionInfo{IP: "127.0.0.1", Key: "k"}, wire.Options{Log: logs})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), &echoHandler{}) }()
	c, err := wiretest.DialReady(srv.Info(), timeout)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Request(wire.Control, "shutdown_request", map[string]any{"restart": false}, timeout)
	if err != nil || res.Reply.Type() != "shutdown_reply" {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(timeout):
		t.Fatal("Serve did not return after shutdown")
	}
	c.Close()
	wiretest.CheckNoLeaks(t)
}

func TestReplayedRequestHandledOnce(t *testing.T) {
	c, h, logs, stop := startServer(t, "k3y")
	defer stop()
	hdr := wire.Header{MsgID: wire.NewID(), Session: c.Session, MsgType: "echo_request", Version: wire.ProtocolVersion}
	frames, err := c.Signer.Encode(nil, hdr, nil, nil, map[string]any{"x": 1})
	if err != nil {
		t.Fatal(err)
	}
	before := h.calls.Load()
	for range 3 {
		if err := c.SendRaw(wire.Shell, frames); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Collect(wire.Shell, hdr.MsgID, timeout); err != nil {
		t.Fatal(err)
	}
	// a later request is answered: the replays were dropped, not queued
	if _, err := c.Request(wire.Shell, "echo_request", map[string]any{}, timeout); err != nil {
		t.Fatal(err)
	}
	if got := h.calls.Load() - before; got != 2 {
		t.Errorf("handler called %d times, want 2 (the replays dropped)", got)
	}
	if n := strings.Count(logs.String(), "duplicate signature"); n != 2 {
		t.Errorf("%d replays logged, want 2:\n%s", n, logs.String())
	}
}
