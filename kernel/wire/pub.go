package wire

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
)

// publisher is the iopub PUB socket: every subscriber has a bounded queue
// drained by its own writer goroutine. When a queue is full the publisher
// waits up to pubBlock for room (so a fast producer is slowed down rather
// than buffered without limit), then drops the message for that subscriber.
type publisher struct {
	raw  *rawListener
	logf func(string, ...any)

	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

const (
	pubQueueLen = 256
	pubBlock    = 2 * time.Second
)

type subscriber struct {
	conn   *zmq4.Conn
	q      chan [][]byte
	mu     sync.Mutex
	topics map[string]bool
	slow   bool // the last message to it was dropped; do not wait again until it drains
	busy   atomic.Int32
}

func newPublisher(addr string, logf func(string, ...any), maxMsg int64) (*publisher, error) {
	p := &publisher{logf: logf, subs: map[*subscriber]struct{}{}}
	raw, err := listenRaw(addr, "iopub", zmq4.Pub, p.serve, logf, maxMsg)
	if err != nil {
		return nil, err
	}
	p.raw = raw
	return p, nil
}

func (p *publisher) serve(c *zmq4.Conn) {
	s := &subscriber{conn: c, q: make(chan [][]byte, pubQueueLen), topics: map[string]bool{}}
	p.mu.Lock()
	p.subs[s] = struct{}{}
	p.mu.Unlock()
	done := make(chan struct{})
	go s.write(done)
	for {
		msg, err := c.RecvMsg()
		if err != nil {
			break
		}
		if msg.Type == zmq4.CmdMsg || len(msg.Frames) != 1 || len(msg.Frames[0]) == 0 {
			continue
		}
		f := msg.Frames[0]
		s.mu.Lock()
		switch f[0] {
		case 1:
			s.topics[string(f[1:])] = true
		case 0:
			delete(s.topics, string(f[1:]))
		}
		s.mu.Unlock()
	}
	p.mu.Lock()
	delete(p.subs, s)
	p.mu.Unlock()
	close(s.q)
	<-done
}

func (s *subscriber) write(done chan<- struct{}) {
	defer close(done)
	failed := false
	for frames := range s.q {
		if failed {
			s.busy.Add(-1)
			continue
		}
		if err := s.conn.SendMsg(zmq4.NewMsgFrom(frames...)); err != nil {
			failed = true
			s.conn.Close()
		}
		s.busy.Add(-1)
		if len(s.q) < pubQueueLen/2 {
			s.mu.Lock()
			s.slow = false
			s.mu.Unlock()
		}
	}
}

func (s *subscriber) subscribed(topic string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t := range s.topics {
		if strings.HasPrefix(topic, t) {
			return true
		}
	}
	return false
}

// send queues frames for every subscriber whose topics match frames[0].
func (p *publisher) send(frames [][]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	topic := ""
	if len(frames) > 0 {
		topic = string(frames[0])
	}
	for s := range p.subs {
		if !s.subscribed(topic) {
			continue
		}
		s.busy.Add(1)
		select {
		case s.q <- frames:
			continue
		default:
		}
		s.mu.Lock()
		slow := s.slow
		s.mu.Unlock()
		if !slow {
			t := time.NewTimer(pubBlock)
			select {
			case s.q <- frames:
				t.Stop()
				continue
			case <-t.C:
			}
		}
		s.busy.Add(-1)
		s.mu.Lock()
		s.slow = true
		s.mu.Unlock()
		p.logf("iopub: subscriber too slow, message dropped")
	}
}

// Close disconnects the subscribers (after giving their queues a moment to
// drain) and waits for all goroutines.
func (p *publisher) Close() error {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		pending := 0
		for s := range p.subs {
			pending += int(s.busy.Load())
		}
		p.mu.Unlock()
		if pending == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	return p.raw.Close()
}
