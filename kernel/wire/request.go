package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
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
	replied    bool
	abortN     int
	allowStdin bool
}

// Server returns the server the request arrived on.
func (r *Request) Server() *Server { return r.srv }

// Reply sends the reply: msg_type is the request's with _request replaced
// by _reply. Only the first reply is sent.
func (r *Request) Reply(content any) error {
	return r.ReplyType(replyType(r.Msg.Type()), content, nil)
}

// ReplyType sends a reply of an explicit type with metadata.
func (r *Request) ReplyType(msgType string, content, metadata any) error {
	r.mu.Lock()
	if r.replied {
		r.mu.Unlock()
		return nil
	}
	r.replied = true
	r.mu.Unlock()
	sock := r.srv.shell
	if r.Channel == Control {
		sock = r.srv.control
	}
	return r.srv.send(sock, r.Msg, msgType, content, metadata)
}

// Replied reports whether a reply was sent.
func (r *Request) Replied() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replied
}

// Publish sends an iopub message whose parent is this request.
func (r *Request) Publish(msgType string, content any) error {
	return r.srv.Publish(r.Msg, msgType, content, nil)
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
	err := s.send(s.stdin, r.Msg, "input_request", map[string]any{"prompt": prompt, "password": password}, nil)
	if err != nil {
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
			var c struct {
				Value string `json:"value"`
			}
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
	_ = json.Unmarshal(m.Content, &c)
	r.allowStdin = c.AllowStdin == nil || *c.AllowStdin
	_ = r.Publish("status", map[string]any{"execution_state": "busy"})
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.Logf("%s: handler panic on %s: %v\n%s", ch, m.Type(), p, debug.Stack())
				_ = r.Reply(ErrorContent("InternalError", fmt.Sprint(p)))
			}
		}()
		h.Handle(ctx, r)
	}()
	if !r.Replied() && strings.HasSuffix(m.Type(), "_request") {
		_ = r.Reply(ErrorContent("UnknownRequest", "unhandled message type "+m.Type()))
	}
	_ = r.Publish("status", map[string]any{"execution_state": "idle"})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.abortN
}

// ErrorContent is a reply content with status "error".
func ErrorContent(ename, evalue string) map[string]any {
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": []string{ename + ": " + evalue}}
}
