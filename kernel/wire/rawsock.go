package wire

import (
	"errors"
	"net"
	"sync"
	"time"

	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4/security/null"
)

// rawListener accepts ZMTP connections of one socket type and serves each
// on its own goroutine. The iopub and heartbeat sockets are built on it
// rather than on zmq4's PUB and REP: zmq4 v0.17.0's PUB never stops its
// writer goroutine on Close and queues without bound, and both need exact
// control of the goroutines they start.
type rawListener struct {
	ln     net.Listener
	name   string
	typ    zmq4.SocketType
	serve  func(*zmq4.Conn)
	logf   func(format string, args ...any)
	maxMsg int64 // the limit of a received message (zmq4.ConnMaxMsgSize)

	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

const handshakeTimeout = 5 * time.Second

func listenRaw(addr, name string, typ zmq4.SocketType, serve func(*zmq4.Conn), logf func(string, ...any), maxMsg int64) (*rawListener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &rawListener{ln: ln, name: name, typ: typ, serve: serve, logf: logf, maxMsg: maxMsg, conns: map[net.Conn]struct{}{}}
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

func (l *rawListener) port() int { return l.ln.Addr().(*net.TCPAddr).Port }

func (l *rawListener) accept() {
	defer l.wg.Done()
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			l.logf("%s accept: %v", l.typ, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			nc.Close()
			return
		}
		l.conns[nc] = struct{}{}
		l.wg.Add(1)
		l.mu.Unlock()
		go l.handle(nc)
	}
}

func (l *rawListener) handle(nc net.Conn) {
	defer l.wg.Done()
	defer func() {
		l.mu.Lock()
		delete(l.conns, nc)
		l.mu.Unlock()
		nc.Close()
	}()
	if err := nc.SetDeadline(time.Now().Add(handshakeTimeout)); err != nil {
		l.logf("%s connection: %v", l.typ, err)
		return
	}
	zc, err := zmq4.Open(nc, null.Security(), l.typ, zmq4.SocketIdentity(NewID()), true, nil,
		zmq4.ConnMaxMsgSize(l.maxMsg), zmq4.ConnLogf(func(format string, args ...any) {
			l.logf(l.name+": "+format, args...)
		}))
	if err != nil {
		if !errors.Is(err, zmq4.ErrMsgTooLarge) { // the Conn logged it
			l.logf("%s handshake: %v", l.typ, err)
		}
		return
	}
	if err := nc.SetDeadline(time.Time{}); err != nil {
		l.logf("%s connection: %v", l.typ, err)
		return
	}
	l.serve(zc)
}

// Close stops accepting, closes every connection and waits for the
// serving goroutines to return.
func (l *rawListener) Close() error {
	l.mu.Lock()
	l.closed = true
	err := l.ln.Close()
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
	return err
}

// serveHeartbeat echoes every message back to its sender.
func serveHeartbeat(c *zmq4.Conn) {
	for {
		msg, err := c.RecvMsg()
		if err != nil {
			return
		}
		if msg.Type == zmq4.CmdMsg {
			continue
		}
		if err := c.SendMsg(zmq4.NewMsgFrom(msg.Frames...)); err != nil {
			return
		}
	}
}
