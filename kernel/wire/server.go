package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
)

// Channel names the socket a request arrived on.
type Channel string

// The two request channels.
const (
	Shell   Channel = "shell"
	Control Channel = "control"
)

// Handler handles shell and control requests. Handle is called on one
// goroutine per channel, so a long shell request does not delay control
// requests. ctx is cancelled when the server shuts down.
type Handler interface {
	Handle(ctx context.Context, r *Request)
}

// Options configure a Server.
type Options struct {
	// Log receives dropped-message and socket diagnostics (default os.Stderr).
	Log io.Writer
	// Username goes into the headers the kernel sends (default "kernel").
	Username string
	// MaxMessageSize is the most bytes a received message may take (its
	// frames' bytes plus 64 a frame); a peer that sends a larger one is
	// dropped, with a line on Log. 0: NSYSX_KERNEL_MAX_MESSAGE, else
	// DefaultMaxMessageSize.
	MaxMessageSize int64
}

// Server owns the five kernel sockets.
type Server struct {
	info    ConnectionInfo
	signer  *Signer
	session string
	user    string
	log     *log.Logger

	sockCtx    context.Context
	sockCancel context.CancelFunc
	shell      zmq4.Socket
	control    zmq4.Socket
	stdin      zmq4.Socket
	iopub      *publisher
	hb         *rawListener

	stdinMu  sync.Mutex
	stdinCh  chan *Message
	shutdown context.CancelFunc
	closeMu  sync.Mutex
	closed   bool
}

// Listen binds all sockets. Ports that are 0 in info are chosen by the
// system; Info reports the ones in use.
func Listen(info ConnectionInfo, opts Options) (s *Server, err error) {
	if err := info.Validate(); err != nil {
		return nil, err
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Username == "" {
		opts.Username = "kernel"
	}
	maxMsg, err := maxMessageSize(opts)
	if err != nil {
		return nil, err
	}
	s = &Server{
		info: info, signer: NewSigner(info.Key), session: NewID(), user: opts.Username,
		log:     log.New(opts.Log, "nsysx kernel: ", log.LstdFlags),
		stdinCh: make(chan *Message, 8),
	}
	s.sockCtx, s.sockCancel = context.WithCancel(context.Background())
	defer func() {
		if err != nil {
			s.closeSockets()
		}
	}()
	bind := func(port *int, name string) (zmq4.Socket, error) {
		sock := zmq4.NewRouter(s.sockCtx, zmq4.WithLogger(log.New(s.socketLog(name), "", 0)),
			zmq4.WithTimeout(10*time.Second), zmq4.WithMaxMsgSize(maxMsg))
		if err := sock.Listen("tcp://" + info.Addr(*port)); err != nil {
			return nil, fmt.Errorf("binding %s: %w", name, err)
		}
		*port = sock.Addr().(*net.TCPAddr).Port
		return sock, nil
	}
	if s.shell, err = bind(&s.info.ShellPort, "shell"); err != nil {
		return nil, err
	}
	if s.control, err = bind(&s.info.ControlPort, "control"); err != nil {
		return nil, err
	}
	if s.stdin, err = bind(&s.info.StdinPort, "stdin"); err != nil {
		return nil, err
	}
	if s.iopub, err = newPublisher(info.Addr(info.IOPubPort), s.log.Printf, maxMsg); err != nil {
		return nil, fmt.Errorf("binding iopub: %w", err)
	}
	s.info.IOPubPort = s.iopub.raw.port()
	if s.hb, err = listenRaw(info.Addr(info.HBPort), "heartbeat", zmq4.Rep, serveHeartbeat, s.log.Printf, maxMsg); err != nil {
		return nil, fmt.Errorf("binding heartbeat: %w", err)
	}
	s.info.HBPort = s.hb.port()
	return s, nil
}

// Info returns the connection info with the ports actually bound.
func (s *Server) Info() ConnectionInfo { return s.info }

// Session returns the kernel's session id, new for every Server.
func (s *Server) Session() string { return s.session }

// Logf writes a diagnostic line to the server's log.
func (s *Server) Logf(format string, args ...any) { s.log.Printf(format, args...) }

// socketLog is where zmq4 logs for the socket name: a line on the
// server's log after the name.
func (s *Server) socketLog(name string) io.Writer {
	return lineWriter(func(line string) { s.log.Printf("%s: %s", name, line) })
}

// lineWriter hands each write, a log line, to a function without its
// newline.
type lineWriter func(line string)

func (w lineWriter) Write(p []byte) (int, error) {
	w(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func (s *Server) header(msgType string) Header {
	return Header{MsgID: NewID(), Session: s.session, Username: s.user, Date: Now(),
		MsgType: msgType, Version: ProtocolVersion}
}

// Publish sends a message on iopub. parent may be nil. The error is
// that of encoding the content (a slow subscriber's drops are logged).
func (s *Server) Publish(parent *Message, c Content, metadata any) error {
	var praw []byte
	if parent != nil {
		praw = parent.RawHeader
	}
	msgType := c.MsgType()
	frames, err := s.signer.Encode([][]byte{[]byte(msgType)}, s.header(msgType), praw, metadata, c)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", msgType, err)
	}
	s.iopub.send(frames)
	return nil
}

func (s *Server) send(sock zmq4.Socket, parent *Message, msgType string, content, metadata any) error {
	frames, err := s.signer.Encode(parent.Identities, s.header(msgType), parent.RawHeader, metadata, content)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", msgType, err)
	}
	if len(parent.Identities) == 0 {
		return fmt.Errorf("sending %s: request has no routing identity", msgType)
	}
	return sock.Send(zmq4.NewMsgFrom(frames...))
}

// Serve publishes status "starting" and handles requests until ctx is
// cancelled or a handler calls Request.Shutdown. It then waits for the
// running handlers, closes the sockets and returns.
func (s *Server) Serve(ctx context.Context, h Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.shutdown = cancel
	if err := s.Publish(nil, Status{ExecutionState: "starting"}, nil); err != nil {
		s.log.Printf("iopub: %v", err)
	}

	shellCh := make(chan *Message, 64)
	controlCh := make(chan *Message, 64)
	var readers, workers sync.WaitGroup
	readers.Add(3)
	go s.read(ctx, &readers, s.shell, Shell, shellCh)
	go s.read(ctx, &readers, s.control, Control, controlCh)
	go s.read(ctx, &readers, s.stdin, "stdin", s.stdinCh)
	workers.Add(2)
	go s.work(ctx, &workers, Shell, shellCh, h)
	go s.work(ctx, &workers, Control, controlCh, h)

	<-ctx.Done()
	workers.Wait()
	s.closeSockets()
	readers.Wait()
	return nil
}

// Close releases the sockets of a server that is not serving.
func (s *Server) Close() error {
	s.closeSockets()
	return nil
}

func (s *Server) closeSockets() {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.iopub != nil {
		s.iopub.Close()
	}
	if s.hb != nil {
		s.hb.Close()
	}
	for _, sock := range []zmq4.Socket{s.shell, s.control, s.stdin} {
		if sock != nil {
			sock.Close()
		}
	}
	s.sockCancel()
}

func (s *Server) read(ctx context.Context, wg *sync.WaitGroup, sock zmq4.Socket, name Channel, out chan<- *Message) {
	defer wg.Done()
	for {
		zm, err := sock.Recv()
		if err != nil {
			if ctx.Err() != nil || s.sockCtx.Err() != nil {
				return
			}
			s.log.Printf("%s: receive: %v", name, err)
			if errors.Is(err, context.Canceled) {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		m, err := s.signer.Decode(zm.Frames)
		if err != nil {
			s.log.Printf("%s: dropped message (%d frames): %v", name, len(zm.Frames), err)
			continue
		}
		select {
		case out <- m:
		case <-ctx.Done():
			return
		}
	}
}
