package zmq4_test

// Tests of the bound on received messages added to the copy (nsysx). The
// peer is written by hand (wiretest.RawPeer) so that it can send what no
// ZMTP implementation would.

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4/security/null"
)

const timeout = 10 * time.Second

// lines collects what a Conn logs.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.l = append(l.l, fmt.Sprintf(format, args...))
}

func (l *lines) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.l...)
}

type opened struct {
	c   *zmq4.Conn
	err error
}

// listen accepts one connection on loopback and opens it as a ROUTER
// with opts; the result arrives on the channel.
func listen(t *testing.T, opts ...zmq4.ConnOption) (string, <-chan opened) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan opened, 1)
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			ch <- opened{err: err}
			return
		}
		t.Cleanup(func() { nc.Close() })
		c, err := zmq4.Open(nc, null.Security(), zmq4.Router, zmq4.SocketIdentity("server"), true, nil, opts...)
		ch <- opened{c, err}
	}()
	return ln.Addr().String(), ch
}

// connect is a DEALER written by hand, connected to a Conn that limits
// messages to limit bytes (0: the default) and logs to log.
func connect(t *testing.T, limit int64, log *lines) (net.Conn, *zmq4.Conn) {
	t.Helper()
	addr, ch := listen(t, zmq4.ConnMaxMsgSize(limit), zmq4.ConnLogf(log.logf))
	peer, err := wiretest.RawPeer(addr, "DEALER", timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close() })
	o := <-ch
	if o.err != nil {
		t.Fatal(o.err)
	}
	return peer, o.c
}

// frame is a frame in the long form with the MORE flag when more.
func frame(body []byte, more bool) []byte {
	f := wiretest.LongFrameHeader(uint64(len(body)))
	if more {
		f[0] |= 0x01
	}
	return append(f, body...)
}

// recv receives one message, failing the test if none comes in time.
func recv(t *testing.T, c *zmq4.Conn) (zmq4.Msg, error) {
	t.Helper()
	type res struct {
		m   zmq4.Msg
		err error
	}
	ch := make(chan res, 1)
	go func() {
		m, err := c.RecvMsg()
		ch <- res{m, err}
	}()
	select {
	case r := <-ch:
		return r.m, r.err
	case <-time.After(timeout):
		t.Fatal("no message")
		return zmq4.Msg{}, nil
	}
}

// dropped checks that err is the limit's, that the peer was disconnected
// and that one line naming it and the frame's size was logged.
func dropped(t *testing.T, err error, peer net.Conn, log *lines, size uint64) {
	t.Helper()
	if !errors.Is(err, zmq4.ErrMsgTooLarge) {
		t.Fatalf("error %v, want ErrMsgTooLarge", err)
	}
	if !wiretest.WaitClosed(peer, timeout) {
		t.Error("the peer was not disconnected")
	}
	got := log.get()
	if len(got) != 1 || !strings.Contains(got[0], peer.LocalAddr().String()) || !strings.Contains(got[0], fmt.Sprintf(" %d bytes", size)) {
		t.Errorf("logged %q, want one line naming %s and %d bytes", got, peer.LocalAddr(), size)
	}
}

// A header declaring 2^40 bytes: refused before anything is allocated
// (upstream zmq4 v0.17.0 allocates the declared size).
func TestHugeFrameDropsPeer(t *testing.T) {
	log := &lines{}
	peer, c := connect(t, 0, log)
	if _, err := peer.Write(append(wiretest.LongFrameHeader(1<<40), "abc"...)); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := recv(t, c)
	runtime.ReadMemStats(&after)
	dropped(t, err, peer, log, 1<<40)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("receiving allocated %d bytes", grew)
	}
	if !c.Closed() {
		t.Error("the Conn is not marked closed")
	}
}

// The limit counts a message's frames with 64 bytes each besides their
// bytes: a frame of exactly the limit is read, one byte more is not.
func TestLimitBoundary(t *testing.T) {
	const limit = 64 << 10
	rng := rand.New(rand.NewPCG(1, 2))
	body := make([]byte, limit-64)
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	log := &lines{}
	peer, c := connect(t, limit, log)
	if _, err := peer.Write(frame(body, false)); err != nil {
		t.Fatal(err)
	}
	m, err := recv(t, c)
	if err != nil || len(m.Frames) != 1 || !bytes.Equal(m.Frames[0], body) {
		t.Fatalf("a frame of the limit: %v, %d frames", err, len(m.Frames))
	}
	if _, err := peer.Write(frame(append(body, 0), false)); err != nil {
		t.Fatal(err)
	}
	_, err = recv(t, c)
	dropped(t, err, peer, log, uint64(len(body)+1))
}

// Empty frames count too: limit/64 of them make a message, one more does
// not.
func TestEmptyFramesCount(t *testing.T) {
	const limit = 64 << 10
	for _, n := range []int{limit / 64, limit/64 + 1} {
		log := &lines{}
		peer, c := connect(t, limit, log)
		var msg []byte
		for i := range n {
			msg = append(msg, frame(nil, i < n-1)...)
		}
		go peer.Write(msg)
		m, err := recv(t, c)
		if n == limit/64 {
			if err != nil || len(m.Frames) != n {
				t.Fatalf("%d empty frames: %v, %d frames", n, err, len(m.Frames))
			}
			continue
		}
		dropped(t, err, peer, log, 0)
	}
}

// A frame larger than the first buffer (1 MiB) is read whole as its bytes
// arrive, in pieces of any size.
func TestLargeFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	body := make([]byte, 3<<20+5)
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	peer, c := connect(t, 0, &lines{})
	go func() {
		b := frame(body, false)
		for len(b) > 0 {
			n := min(len(b), 1+rng.IntN(300000))
			if _, err := peer.Write(b[:n]); err != nil {
				return
			}
			b = b[n:]
		}
	}()
	m, err := recv(t, c)
	if err != nil || len(m.Frames) != 1 || !bytes.Equal(m.Frames[0], body) {
		t.Fatalf("%v, %d frames", err, len(m.Frames))
	}
}

// handshake opens a server Conn against a peer that sends the greeting
// and then ready as its READY command.
func handshake(t *testing.T, ready []byte) (net.Conn, opened, *lines) {
	t.Helper()
	log := &lines{}
	addr, ch := listen(t, zmq4.ConnLogf(log.logf))
	peer, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close() })
	if _, err := peer.Write(append(wiretest.Greeting(), ready...)); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-ch:
		return peer, o, log
	case <-time.After(timeout):
		t.Fatal("Open did not return")
		return nil, opened{}, nil
	}
}

// The READY command of the handshake is bounded like any message.
func TestHugeReady(t *testing.T) {
	hdr := wiretest.LongFrameHeader(1 << 40)
	hdr[0] |= 0x04 // a command
	peer, o, log := handshake(t, hdr)
	dropped(t, o.err, peer, log, 1<<40)
}

// Every READY cut short is an error, never a panic (upstream zmq4 v0.17.0
// reads past a property cut within its name or its value's length).
func TestTruncatedReady(t *testing.T) {
	full := wiretest.ReadyCommand("DEALER")[2:] // the body: name, then one property
	for n := len("\x05READY") + 1; n < len(full); n++ {
		body := full[:n]
		_, o, _ := handshake(t, append([]byte{0x04, byte(len(body))}, body...))
		if o.err == nil {
			t.Errorf("READY %q accepted", body)
		}
	}
}
