// Package wiretest is a Jupyter test client (zmq4 DEALER, SUB and REQ
// sockets) for in-process tests of the kernel. Every wait has a timeout.
package wiretest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nsysx/nsysx/kernel/wire"
	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
)

// Client talks to a kernel like a Jupyter frontend.
type Client struct {
	Signer  *wire.Signer
	Session string

	ctx                   context.Context
	cancel                context.CancelFunc
	shell, control, stdin zmq4.Socket
	iopub, hb             zmq4.Socket
	shellCh, controlCh    chan *wire.Message
	stdinCh, iopubCh      chan *wire.Message
	wg                    sync.WaitGroup
}

// Dial connects to the kernel described by info.
func Dial(info wire.ConnectionInfo) (*Client, error) {
	c := &Client{Signer: wire.NewSigner(info.Key), Session: wire.NewID()}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	id := zmq4.WithID(zmq4.SocketIdentity(c.Session))
	c.shell = zmq4.NewDealer(c.ctx, id)
	c.control = zmq4.NewDealer(c.ctx, id)
	c.stdin = zmq4.NewDealer(c.ctx, id)
	c.iopub = zmq4.NewSub(c.ctx)
	c.hb = zmq4.NewReq(c.ctx)
	ep := func(port int) string { return fmt.Sprintf("tcp://%s:%d", info.IP, port) }
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, info.ShellPort}, {c.control, info.ControlPort}, {c.stdin, info.StdinPort}, {c.iopub, info.IOPubPort}, {c.hb, info.HBPort}} {
		if err := d.s.Dial(ep(d.port)); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		c.Close()
		return nil, err
	}
	c.shellCh, c.controlCh = make(chan *wire.Message, 1024), make(chan *wire.Message, 1024)
	c.stdinCh, c.iopubCh = make(chan *wire.Message, 1024), make(chan *wire.Message, 4096)
	for _, r := range []struct {
		s  zmq4.Socket
		ch chan *wire.Message
	}{{c.shell, c.shellCh}, {c.control, c.controlCh}, {c.stdin, c.stdinCh}, {c.iopub, c.iopubCh}} {
		c.wg.Add(1)
		go c.read(r.s, r.ch)
	}
	return c, nil
}

// DialReady dials and waits until the kernel answers (WaitReady).
func DialReady(info wire.ConnectionInfo, timeout time.Duration) (*Client, error) {
	c, err := Dial(info)
	if err != nil {
		return nil, err
	}
	if err := c.WaitReady(timeout); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Client) read(s zmq4.Socket, ch chan *wire.Message) {
	defer c.wg.Done()
	for {
		zm, err := s.Recv()
		if err != nil {
			if c.ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		frames := zm.Frames
		if s == c.iopub && len(frames) > 0 { // topic frame
			frames = frames[1:]
		}
		m, err := c.Signer.Decode(frames)
		if err != nil {
			continue
		}
		select {
		case ch <- m:
		case <-c.ctx.Done():
			return
		}
	}
}

// Close closes the sockets and waits for the reader goroutines.
func (c *Client) Close() {
	c.cancel()
	for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub, c.hb} {
		if s != nil {
			s.Close()
		}
	}
	c.wg.Wait()
}

func (c *Client) socket(ch wire.Channel) zmq4.Socket {
	switch ch {
	case wire.Control:
		return c.control
	case "stdin":
		return c.stdin
	}
	return c.shell
}

// Send sends a request and returns its msg_id.
func (c *Client) Send(ch wire.Channel, msgType string, content any) (string, error) {
	h := wire.Header{MsgID: wire.NewID(), Session: c.Session, Username: "test", Date: wire.Now(),
		MsgType: msgType, Version: wire.ProtocolVersion}
	frames, err := c.Signer.Encode(nil, h, nil, nil, content)
	if err != nil {
		return "", err
	}
	return h.MsgID, c.SendRaw(ch, frames)
}

// StartExecute sends an execute_request for code and waits until the
// kernel has started the cell (its execute_input on iopub): an interrupt
// sent after it reaches the cell, never an idle kernel. The iopub
// messages read meanwhile are dropped; Collect the reply with the id.
func (c *Client) StartExecute(code string, timeout time.Duration) (string, error) {
	id, err := c.Send(wire.Shell, "execute_request", map[string]any{"code": code})
	if err != nil {
		return "", err
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return id, fmt.Errorf("the cell %s did not start within %v", id, timeout)
		}
		m, err := c.Recv("iopub", left)
		if err == nil && m.ParentHeader().MsgID == id && m.Type() == "execute_input" {
			return id, nil
		}
	}
}

// SendReply sends a message on stdin answering parent (an input_request).
func (c *Client) SendReply(parent *wire.Message, msgType string, content any) error {
	h := wire.Header{MsgID: wire.NewID(), Session: c.Session, Username: "test", Date: wire.Now(),
		MsgType: msgType, Version: wire.ProtocolVersion}
	frames, err := c.Signer.Encode(nil, h, parent.RawHeader, nil, content)
	if err != nil {
		return err
	}
	return c.SendRaw("stdin", frames)
}

// SendRaw sends arbitrary frames (for malformed-message tests).
func (c *Client) SendRaw(ch wire.Channel, frames [][]byte) error {
	return c.socket(ch).Send(zmq4.NewMsgFrom(frames...))
}

// Recv waits for the next message on a channel ("shell", "control", "stdin", "iopub").
func (c *Client) Recv(ch wire.Channel, timeout time.Duration) (*wire.Message, error) {
	var in chan *wire.Message
	switch ch {
	case wire.Shell:
		in = c.shellCh
	case wire.Control:
		in = c.controlCh
	case "stdin":
		in = c.stdinCh
	default:
		in = c.iopubCh
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m := <-in:
		return m, nil
	case <-t.C:
		return nil, fmt.Errorf("no %s message within %v", ch, timeout)
	}
}

// Heartbeat sends a ping and waits for the echo.
func (c *Client) Heartbeat(timeout time.Duration) error {
	done := make(chan error, 1)
	go func() {
		if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
			done <- err
			return
		}
		m, err := c.hb.Recv()
		if err == nil && string(m.Bytes()) != "ping" {
			err = fmt.Errorf("heartbeat echoed %q", m.Bytes())
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("no heartbeat within %v", timeout)
	}
}

// Result is a reply plus the iopub messages of the same request, from busy
// to idle inclusive.
type Result struct {
	Reply *wire.Message
	IOPub []*wire.Message
}

// Content decodes the reply content into a map.
func (r *Result) Content() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Reply.Content, &m)
	return m
}

// OfType returns the iopub messages of one type.
func (r *Result) OfType(t string) []*wire.Message {
	var out []*wire.Message
	for _, m := range r.IOPub {
		if m.Type() == t {
			out = append(out, m)
		}
	}
	return out
}

// Stream returns the text of the stream messages called name ("stdout",
// "stderr").
func (r *Result) Stream(name string) string {
	var b strings.Builder
	for _, m := range r.OfType("stream") {
		var c struct{ Name, Text string }
		_ = m.DecodeContent(&c)
		if c.Name == name {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// InterruptCell sends an interrupt_request, waits for its reply and then
// collects the execute reply of the cell id (started with StartExecute).
func (c *Client) InterruptCell(id string, timeout time.Duration) (*Result, error) {
	if _, err := c.Send(wire.Control, "interrupt_request", map[string]any{}); err != nil {
		return nil, err
	}
	if ir, err := c.Recv(wire.Control, timeout); err != nil || ir.Type() != "interrupt_reply" {
		return nil, fmt.Errorf("interrupt: %v %v", ir, err)
	}
	return c.Collect(wire.Shell, id, timeout)
}

// Request sends a request and waits for its reply and its idle status.
// iopub messages of other parents are discarded.
func (c *Client) Request(ch wire.Channel, msgType string, content any, timeout time.Duration) (*Result, error) {
	id, err := c.Send(ch, msgType, content)
	if err != nil {
		return nil, err
	}
	return c.Collect(ch, id, timeout)
}

// Collect waits for the reply to msgID on ch and its iopub messages up to idle.
func (c *Client) Collect(ch wire.Channel, msgID string, timeout time.Duration) (*Result, error) {
	deadline := time.Now().Add(timeout)
	res := &Result{}
	idle := false
	for res.Reply == nil || !idle {
		left := time.Until(deadline)
		if left <= 0 {
			return res, fmt.Errorf("timeout waiting for reply=%v idle=%v to %s", res.Reply != nil, idle, msgID)
		}
		if res.Reply == nil {
			m, err := c.Recv(ch, min(left, 10*time.Millisecond))
			if err == nil && m.ParentHeader().MsgID == msgID {
				res.Reply = m
			}
		}
		if !idle {
			m, err := c.Recv("iopub", min(left, 10*time.Millisecond))
			if err == nil && m.ParentHeader().MsgID == msgID {
				res.IOPub = append(res.IOPub, m)
				if m.Type() == "status" && string(stateOf(m)) == "idle" {
					idle = true
				}
			}
		}
	}
	return res, nil
}

func stateOf(m *wire.Message) string {
	var c struct {
		State string `json:"execution_state"`
	}
	_ = m.DecodeContent(&c)
	return c.State
}

// WaitReady sends kernel_info requests until one is answered with its
// busy/idle seen on iopub (the subscription is then established).
func (c *Client) WaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		res, err := c.Request(wire.Shell, "kernel_info_request", map[string]any{}, 500*time.Millisecond)
		if err == nil && len(res.IOPub) > 0 && res.IOPub[0].Type() == "status" {
			return nil
		}
	}
	return fmt.Errorf("kernel not ready within %v", timeout)
}
