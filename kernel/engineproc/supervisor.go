package engineproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

// Options configure a Supervisor.
type Options struct {
	// Command returns the engine process's command, a program that calls
	// Serve (`nsysx kernel engine`). The supervisor sets its ExtraFiles,
	// Stdout and Stderr and adds NSYSX_KERNEL_ENGINE=1 to its environment.
	Command func() *exec.Cmd
	// Log receives the engine process's stdout and stderr (what compiled
	// code prints there, a fatal error's goroutine dump) and one line per
	// restart; nil: os.Stderr, which Jupyter shows in its log.
	Log io.Writer
	// StartTimeout bounds the start of an engine (default 1 min).
	StartTimeout time.Duration
}

// Supervisor is a kernel.CellEngine that runs the cells in an engine
// process and starts a fresh one when it dies.
type Supervisor struct {
	opts Options

	mu       sync.Mutex
	proc     *proc  // the engine running, nil after a death until restarted
	banner   string // of the first engine
	notice   string // said on the stderr of the next cell: a death while idle
	restarts []time.Time
	opens    []string // %open and %cd lines of cells that succeeded, run again after a restart
	closed   bool
}

// proc is one engine process.
type proc struct {
	cmd  *exec.Cmd
	wmu  sync.Mutex
	enc  *json.Encoder
	reqs *os.File // the parent's end of the request pipe

	mu      sync.Mutex
	calls   map[uint64]*call
	nextID  uint64
	dead    bool
	cause   string        // why it died
	exited  chan struct{} // closed once it is dead and its cause known
	tail    *tailBuffer   // the end of its stderr
	started time.Time
}

// call is one request awaiting its done event.
type call struct {
	out  kernel.Output // for a cell: where its output goes
	done chan event
}

// Start starts the supervisor and its first engine.
func Start(opts Options) (*Supervisor, error) {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = time.Minute
	}
	s := &Supervisor{opts: opts}
	p, banner, err := s.start()
	if err != nil {
		return nil, err
	}
	s.proc, s.banner = p, banner
	return s, nil
}

// start starts an engine process and waits for its hello.
func (s *Supervisor) start() (*proc, string, error) {
	cmd := s.opts.Command()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, "", err
	}
	p := &proc{cmd: cmd, enc: json.NewEncoder(reqW), reqs: reqW, calls: map[uint64]*call{},
		exited: make(chan struct{}), tail: &tailBuffer{max: 64 << 10}, started: time.Now()}
	cmd.ExtraFiles = []*os.File{reqR, evW}
	cmd.Env = append(cmd.Environ(), engineEnv+"=1")
	cmd.Stdout = s.opts.Log
	cmd.Stderr = io.MultiWriter(p.tail, s.opts.Log)
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		evR.Close()
		evW.Close()
		return nil, "", fmt.Errorf("starting the engine process: %w", err)
	}
	reqR.Close()
	evW.Close()
	hello := make(chan string, 1)
	go p.read(evR, hello)
	t := time.NewTimer(s.opts.StartTimeout)
	defer t.Stop()
	select {
	case banner := <-hello:
		return p, banner, nil
	case <-p.exited:
		return nil, "", fmt.Errorf("the engine process did not start: it %s", p.cause)
	case <-t.C:
		p.kill()
		<-p.exited
		return nil, "", fmt.Errorf("the engine process did not start within %v", s.opts.StartTimeout)
	}
}

// read dispatches the events of p until its pipe ends, then waits for the
// process and fails the calls left.
func (p *proc) read(r io.ReadCloser, hello chan<- string) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	for {
		var ev event
		if err := dec.Decode(&ev); err != nil {
			break
		}
		if ev.Op == evHello {
			hello <- ev.Text
			continue
		}
		p.mu.Lock()
		c := p.calls[ev.ID]
		if ev.Op == evDone {
			delete(p.calls, ev.ID)
		}
		p.mu.Unlock()
		if c != nil {
			p.dispatch(c, ev)
		} else if ev.Op == evInput { // the cell was left behind
			p.send(request{Op: opInput, ID: ev.ID, Seq: ev.Seq, Err: context.Canceled.Error()})
		}
	}
	r.Close()
	p.reqs.Close()
	err := p.cmd.Wait()
	p.mu.Lock()
	p.dead = true
	p.cause = deathCause(err, p.tail.String())
	calls := p.calls
	p.calls = nil
	p.mu.Unlock()
	close(p.exited)
	for _, c := range calls {
		close(c.done)
	}
}

// dispatch sends one event of a call on to its output (or ends the call).
func (p *proc) dispatch(c *call, ev event) {
	out := c.out
	switch ev.Op {
	case evDone:
		c.done <- ev
	case evStdout:
		out.Stdout().Write(ev.Bytes)
	case evStderr:
		out.Stderr().Write(ev.Bytes)
	case evDisp:
		out.Display(kernel.Display{Data: decodeMap(ev.Data), Metadata: decodeMap(ev.Metadata), ID: ev.DisplayID})
	case evUpdate:
		out.UpdateDisplay(kernel.Display{Data: decodeMap(ev.Data), Metadata: decodeMap(ev.Metadata), ID: ev.DisplayID})
	case evResult:
		out.Result(decodeMap(ev.Data), decodeMap(ev.Metadata))
	case evClear:
		out.Clear(ev.Wait)
	case evInput:
		go func() { // the frontend's answer may take long: keep reading
			text, err := out.Input(ev.Text, ev.Password)
			r := request{Op: opInput, ID: ev.ID, Seq: ev.Seq, Text: text}
			if err != nil {
				r.Err = err.Error()
			}
			p.send(r)
		}()
	}
}

// decodeMap decodes a bundle; numbers stay json.Number, so that an int64
// is sent on with all its digits.
func decodeMap(raw json.RawMessage) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return map[string]any{}
	}
	return m
}

func (p *proc) send(r request) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.enc.Encode(r)
}

func (p *proc) kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
}

// request sends r as a new call and returns its ID and the call; ok is
// false when the process is dead.
func (p *proc) request(r request, out kernel.Output) (id uint64, c *call, ok bool) {
	c = &call{out: out, done: make(chan event, 1)}
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		return 0, nil, false
	}
	p.nextID++
	r.ID = p.nextID
	p.calls[r.ID] = c
	p.mu.Unlock()
	if p.send(r) != nil {
		<-p.exited // a write fails only when the process is gone
		return 0, nil, false
	}
	return r.ID, c, true
}

// engine returns the engine process, starting a fresh one after a death.
// notice is what the next cell should say first (a death while no cell
// ran, profiles re-opened), once.
func (s *Supervisor) engine() (p *proc, notice string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, "", errors.New("the kernel is shutting down")
	}
	if s.proc != nil {
		select {
		case <-s.proc.exited:
			s.notice += fmt.Sprintf("The engine process died while no cell ran: it %s. The session's variables were lost; "+
				"a fresh engine has started.\n", s.proc.cause)
			s.proc = nil
		default:
		}
	}
	if s.proc == nil {
		if s.proc, err = s.restart(); err != nil {
			return nil, "", err
		}
	}
	notice, s.notice = s.notice, ""
	return s.proc, notice, nil
}

// restart starts a fresh engine and runs the %cd and %open lines again,
// so that the profiles opened are bound again (s.mu held).
func (s *Supervisor) restart() (*proc, error) {
	p, _, err := s.start()
	if err != nil {
		return nil, err
	}
	s.restarts = append(s.restarts, time.Now())
	fmt.Fprintf(s.opts.Log, "nsysx kernel: started a fresh engine process (restart %d)\n", len(s.restarts))
	if len(s.opens) > 0 {
		var b strings.Builder
		if err := p.runCell(context.Background(), strings.Join(s.opens, "\n"), kernel.TextOutput{W: &b}); err != nil {
			s.notice += "Running %open again failed: " + err.Error() + "\n"
		} else {
			s.notice += "Run again in the fresh engine: " + strings.Join(s.opens, "; ") + "\n"
		}
	}
	return p, nil
}

// runCell runs code in p; errDied when p died meanwhile.
func (p *proc) runCell(ctx context.Context, code string, out kernel.Output) error {
	id, c, ok := p.request(request{Op: opExecute, Code: code}, out)
	if !ok {
		return errDied
	}
	interrupted := false
	for {
		select {
		case ev, ok := <-c.done:
			if !ok {
				return errDied
			}
			return fromWire(ev.Err)
		case <-ctx.Done():
			if !interrupted {
				interrupted = true
				p.send(request{Op: opInterrupt, ID: id})
			}
			ctx = context.Background() // wait on for the engine's answer (the kernel's grace bounds it)
		}
	}
}

var errDied = errors.New("the engine process died")

// RunCell implements kernel.CellEngine: the cell runs in the engine
// process. When the process dies, the cell's error says why, that the
// session's variables were lost and that a fresh engine started.
func (s *Supervisor) RunCell(ctx context.Context, code string, out kernel.Output) error {
	p, notice, err := s.engine()
	if err != nil {
		return err
	}
	if notice != "" {
		io.WriteString(out.Stderr(), notice)
	}
	err = p.runCell(ctx, code, out)
	switch {
	case errors.Is(err, errDied):
		return s.died(p)
	case err == nil:
		s.noteOpens(code)
	default:
		err = s.explainUndefined(err)
	}
	return err
}

// died replaces the engine that died running a cell and returns the cell's error.
func (s *Supervisor) died(p *proc) error {
	<-p.exited
	s.mu.Lock()
	if s.proc == p {
		s.proc = nil
	}
	s.mu.Unlock()
	msg := "the engine process running the cells died: it " + p.cause + ". The session's variables were lost"
	if _, notice, err := s.engine(); err != nil {
		msg += "; starting a fresh engine failed: " + err.Error()
	} else {
		msg += "; a fresh engine has started."
		if notice != "" {
			msg += " " + strings.TrimSpace(notice)
		}
	}
	tb := []string{"EngineDied: " + msg}
	if lines := fatalLines(p.tail.String()); len(lines) > 0 {
		tb = append(tb, "", "The engine's last words:")
		tb = append(tb, lines...)
	}
	return &kernel.Error{Name: "EngineDied", Value: msg, Traceback: tb}
}

// noteOpens remembers the %open and %cd lines of a cell that succeeded,
// in order (a relative %open depends on the %cd before it); an %open
// already remembered is not added again.
func (s *Supervisor) noteOpens(code string) {
	for _, line := range strings.Split(code, "\n") {
		line = strings.TrimSpace(line)
		name, _, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		if name != "%open" && name != "%cd" {
			continue
		}
		s.mu.Lock()
		if name == "%cd" || !slices.Contains(s.opens, line) {
			s.opens = append(s.opens, line)
		}
		s.mu.Unlock()
	}
}

// explainUndefined adds to an "undefined: x" error, after a restart, that
// the variables defined before it were lost.
func (s *Supervisor) explainUndefined(err error) error {
	var ke *kernel.Error
	s.mu.Lock()
	n := len(s.restarts)
	var last time.Time
	if n > 0 {
		last = s.restarts[n-1]
	}
	s.mu.Unlock()
	if n == 0 || !errors.As(err, &ke) || !strings.Contains(ke.Value, "undefined: ") {
		return err
	}
	note := fmt.Sprintf("(the engine process was restarted at %s after a cell ended it: what cells defined before then is lost)",
		last.Format("15:04:05"))
	e := *ke
	e.Value += " " + note
	e.Traceback = append(append([]string(nil), ke.Traceback...), note)
	return &e
}

// Execute implements kernel.Engine: code runs as a whole cell.
func (s *Supervisor) Execute(ctx context.Context, code string, out kernel.Output) error {
	return s.RunCell(ctx, code, out)
}

// ask sends a request that is not a cell and waits for its answer; ok is
// false when no engine answers.
func (s *Supervisor) ask(r request) (event, bool) {
	p, notice, err := s.engine()
	if err != nil {
		return event{}, false
	}
	if notice != "" { // keep it for the next cell
		s.mu.Lock()
		s.notice = notice + s.notice
		s.mu.Unlock()
	}
	_, c, ok := p.request(r, nil)
	if !ok {
		return event{}, false
	}
	ev, ok := <-c.done
	return ev, ok
}

// Complete implements kernel.Engine.
func (s *Supervisor) Complete(code string, cursor int) kernel.Completion {
	if ev, ok := s.ask(request{Op: opComplete, Code: code, Cursor: cursor}); ok && ev.Completion != nil {
		return *ev.Completion
	}
	return kernel.Completion{}
}

// Inspect implements kernel.Engine.
func (s *Supervisor) Inspect(code string, cursor, detail int) kernel.Inspection {
	if ev, ok := s.ask(request{Op: opInspect, Code: code, Cursor: cursor, Detail: detail}); ok && ev.Inspection != nil {
		return *ev.Inspection
	}
	return kernel.Inspection{}
}

// IsComplete implements kernel.Engine.
func (s *Supervisor) IsComplete(code string) (string, string) {
	if ev, ok := s.ask(request{Op: opIsComplete, Code: code}); ok && ev.Status != "" {
		return ev.Status, ev.Indent
	}
	return "unknown", ""
}

// EvalExpression implements kernel.ExpressionEvaluator.
func (s *Supervisor) EvalExpression(ctx context.Context, expr string) (map[string]any, error) {
	ev, ok := s.ask(request{Op: opEval, Code: expr})
	if !ok {
		return nil, errDied
	}
	if ev.Err != nil {
		return nil, fromWire(ev.Err)
	}
	return decodeMap(ev.Data), nil
}

// Banner implements kernel.Bannerer: the engine's banner.
func (s *Supervisor) Banner() string { return s.banner }

// Close implements io.Closer: it closes the engine's request pipe (the
// engine then closes its engine and exits) and kills it if it has not
// exited within 5 s.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	s.closed = true
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	p.wmu.Lock()
	p.reqs.Close()
	p.wmu.Unlock()
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		p.kill()
		<-p.exited
	}
	return nil
}
