package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrStdinNotAllowed is returned by Request.Input when the client sent
// allow_stdin false.
var ErrStdinNotAllowed = errors.New("wire: the frontend does not accept input requests")

// Request is one shell or control request being handled.
type Request struct {
	Channel Channel
	Msg     *Message
	// Aborting is set for requests drained from the shell queue after a
	// handler called AbortQueued: execute requests should be answered with
	// status "aborted" without running.
	Aborting bool

	srv        *Server
	queued     func() int // requests waiting behind this one
	mu         sync.Mutex
	replied    atomic.Bool
	abortN     int
	allowStdin bool
}

// Server returns the server the request arrived on.
func (r *Request) Server() *Server { return r.srv }

// Reply sends the reply: msg_type is the request's with _request replaced
// by _reply. Only the first reply is sent. A failure (the content does
// not encode, the client is gone) is logged on the server's log: the
// handler has no one else to tell.
func (r *Request) Reply(content any) {
	if !r.replied.CompareAndSwap(false, true) {
		return
	}
	sock := r.srv.shell
	if r.Channel == Control {
		sock = r.srv.control
	}
	if err := r.srv.send(sock, r.Msg, replyType(r.Msg.Type()), content, nil); err != nil {
		r.srv.Logf("%s: replying to %s: %v", r.Channel, r.Msg.Type(), err)
	}
}

// Replied reports whether a reply was sent.
func (r *Request) Replied() bool {
	return r.replied.Load()
}

// Publish sends an iopub message whose parent is this request; a failure
// is logged on the server's log.
func (r *Request) Publish(c Content) {
	if err := r.Emit(c); err != nil {
		r.srv.Logf("%s: publishing for %s: %v", r.Channel, r.Msg.Type(), err)
	}
}

// Emit is Publish returning the error instead of logging it, for outputs
// whose producer handles it (a cell told that its display failed).
func (r *Request) Emit(c Content) error {
	return r.srv.Publish(r.Msg, c, nil)
}

// AbortQueued marks the shell requests queued at this moment to be handed
// to the handler with Aborting set once this one is done (stop_on_error).
// Call it before replying, so that requests a client sends after seeing
// the reply are not aborted.
func (r *Request) AbortQueued() {
	if r.queued == nil {
		return
	}
	n := r.queued()
	r.mu.Lock()
	r.abortN = n
	r.mu.Unlock()
}

// Shutdown stops the server once the current requests are handled.
func (r *Request) Shutdown() { r.srv.shutdown() }

// Input sends an input_request on stdin to the client of this request and
// waits for the input_reply (or ctx).
func (r *Request) Input(ctx context.Context, prompt string, password bool) (string, error) {
	if !r.allowStdin {
		return "", ErrStdinNotAllowed
	}
	s := r.srv
	s.stdinMu.Lock()
	defer s.stdinMu.Unlock()
	for len(s.stdinCh) > 0 { // stale replies to abandoned requests
		<-s.stdinCh
	}
	req := InputRequest{Prompt: prompt, Password: password}
	if err := s.send(s.stdin, r.Msg, req.MsgType(), req, nil); err != nil {
		return "", err
	}
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case m := <-s.stdinCh:
			if m.Type() != "input_reply" {
				s.Logf("stdin: ignored %s", m.Type())
				continue
			}
			var c InputReply
			if err := m.DecodeContent(&c); err != nil {
				return "", fmt.Errorf("input_reply: %w", err)
			}
			return c.Value, nil
		}
	}
}

func replyType(t string) string {
	if strings.HasSuffix(t, "_request") {
		return strings.TrimSuffix(t, "_request") + "_reply"
	}
	return t + "_reply"
}

func (s *Server) work(ctx context.Context, wg *sync.WaitGroup, ch Channel, in <-chan *Message, h Handler) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-in:
			n := s.dispatch(ctx, ch, m, h, false, func() int { return len(in) })
			for ; n > 0; n-- { // abort what was queued when the handler asked
				select {
				case <-ctx.Done():
					return
				case m := <-in:
					s.dispatch(ctx, ch, m, h, true, nil)
				}
			}
		}
	}
}

// dispatch runs one request between status busy and idle and makes sure a
// *_request gets a reply. It returns how many queued requests to abort.
func (s *Server) dispatch(ctx context.Context, ch Channel, m *Message, h Handler, aborting bool, queued func() int) int {
	r := &Request{Channel: ch, Msg: m, Aborting: aborting, srv: s}
	if ch == Shell {
		r.queued = queued
	}
	var c struct {
		AllowStdin *bool `json:"allow_stdin"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil { // a field of the wrong type: the handler's decoding says so
		s.Logf("%s: %s: %v", ch, m.Type(), err)
	}
	r.allowStdin = c.AllowStdin == nil || *c.AllowStdin
	r.Publish(Status{ExecutionState: "busy"})
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.Logf("%s: handler panic on %s: %v\n%s", ch, m.Type(), p, debug.Stack())
				r.Reply(NewErrorReply("InternalError", fmt.Sprint(p)))
			}
		}()
		h.Handle(ctx, r)
	}()
	if !r.Replied() && strings.HasSuffix(m.Type(), "_request") {
		r.Reply(NewErrorReply("UnknownRequest", "unhandled message type "+m.Type()))
	}
	r.Publish(Status{ExecutionState: "idle"})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.abortN
}
