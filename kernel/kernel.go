package kernel

import (
	"context"
	"fmt"
	"io"
	"log"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nsysx/nsysx/kernel/wire"
)

// Version is the kernel implementation version reported in kernel_info.
const Version = "0.1.0"

// Kernel handles the Jupyter requests for one Engine. It implements
// wire.Handler.
type Kernel struct {
	engine  Engine
	magics  *Magics
	history history

	mu         sync.Mutex
	count      int                // execution_count
	cancelCell context.CancelFunc // of the running cell, nil when idle

	// InterruptGrace is how long an interrupted cell may take to return
	// before the kernel replies and leaves it running in the background.
	InterruptGrace time.Duration
}

// New returns a kernel for engine with the built-in magics and, when the
// engine implements MagicRegistrar, the engine's magics.
func New(engine Engine) (*Kernel, error) {
	k := &Kernel{engine: engine, magics: NewMagics(), InterruptGrace: 2 * time.Second}
	if _, ok := engine.(CellEngine); ok {
		return k, nil // its kernel has the magics
	}
	registerBuiltins(k.magics, engine)
	if r, ok := engine.(MagicRegistrar); ok {
		if err := r.RegisterMagics(k.magics); err != nil {
			return nil, fmt.Errorf("registering engine magics: %w", err)
		}
	}
	return k, nil
}

// Magics returns the kernel's magic registry.
func (k *Kernel) Magics() *Magics { return k.magics }

// Run serves the kernel described by connectionFile until it is shut down
// by the frontend or ctx is cancelled. It silences the standard logger
// while it runs (and restores it after): the interpreter logs a line there
// before each of its compile panics ("nil type"), which the engine
// recovers and reports as the cell's error; on the kernel's stderr, which
// Jupyter shows in its log, the line would be noise.
func Run(ctx context.Context, connectionFile string, engine Engine) error {
	defer silenceStdLog()()
	info, err := wire.ReadConnectionFile(connectionFile)
	if err != nil {
		return err
	}
	k, err := New(engine)
	if err != nil {
		return err
	}
	srv, err := wire.Listen(info, wire.Options{})
	if err != nil {
		return err
	}
	return k.Serve(ctx, srv)
}

// silenceStdLog discards the standard logger's output and returns the
// function that restores it.
func silenceStdLog() (restore func()) {
	w := log.Writer()
	log.SetOutput(io.Discard)
	return func() { log.SetOutput(w) }
}

// Serve handles requests on srv until shutdown, then closes the engine if
// it is an io.Closer.
func (k *Kernel) Serve(ctx context.Context, srv *wire.Server) error {
	err := srv.Serve(ctx, k)
	k.interrupt()
	if c, ok := k.engine.(io.Closer); ok {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Handle implements wire.Handler.
func (k *Kernel) Handle(ctx context.Context, r *wire.Request) {
	switch r.Msg.Type() {
	case "kernel_info_request":
		r.Reply(k.kernelInfo())
	case "execute_request":
		k.execute(ctx, r)
	case "complete_request":
		k.complete(r)
	case "inspect_request":
		k.inspect(r)
	case "is_complete_request":
		k.isComplete(r)
	case "history_request":
		var q wire.HistoryRequest
		if decode(r, &q) {
			r.Reply(wire.HistoryReply{Status: wire.StatusOK, History: k.history.query(q)})
		}
	case "comm_info_request":
		r.Reply(wire.CommInfoReply{Status: wire.StatusOK, Comms: map[string]wire.CommInfo{}})
	case "comm_open":
		// No comm targets: close it right away, as the protocol asks.
		var c wire.CommOpen
		if decode(r, &c) {
			r.Publish(wire.CommClose{CommID: c.CommID, Data: map[string]any{}})
		}
	case "comm_msg", "comm_close":
		// nothing is open
	case "interrupt_request":
		k.interrupt()
		r.Reply(wire.StatusReply{Status: wire.StatusOK})
	case "shutdown_request":
		var c wire.ShutdownRequest
		if decode(r, &c) {
			k.interrupt()
			reply := wire.ShutdownReply{Status: wire.StatusOK, Restart: c.Restart}
			r.Reply(reply)
			r.Publish(reply)
			r.Shutdown()
		}
	default:
		if strings.HasSuffix(r.Msg.Type(), "_request") {
			r.Reply(wire.NewErrorReply("UnknownRequest", "unsupported message type "+r.Msg.Type()))
		}
	}
}

// decode decodes the content of r into v. When it does not decode, a
// request gets an error reply and other messages are logged and dropped.
func decode(r *wire.Request, v any) bool {
	err := r.Msg.DecodeContent(v)
	switch {
	case err == nil:
		return true
	case strings.HasSuffix(r.Msg.Type(), "_request"):
		r.Reply(wire.NewErrorReply("BadRequest", fmt.Sprintf("%s: %v", r.Msg.Type(), err)))
	default:
		r.Server().Logf("%s: dropped %s: %v", r.Channel, r.Msg.Type(), err)
	}
	return false
}

func (k *Kernel) kernelInfo() wire.KernelInfoReply {
	banner := "nsysx " + Version + " — Go kernel (" + runtime.Version() + ")"
	if b, ok := k.engine.(Bannerer); ok {
		banner = b.Banner()
	}
	return wire.KernelInfoReply{
		Status:                wire.StatusOK,
		ProtocolVersion:       wire.ProtocolVersion,
		Implementation:        "nsysx",
		ImplementationVersion: Version,
		LanguageInfo: wire.LanguageInfo{
			Name:           "go",
			Version:        strings.TrimPrefix(runtime.Version(), "go"),
			Mimetype:       "text/x-go",
			FileExtension:  ".go",
			PygmentsLexer:  "go",
			CodemirrorMode: "go",
		},
		Banner:            banner,
		HelpLinks:         []wire.HelpLink{},
		SupportedFeatures: []string{},
	}
}

// interrupt cancels the running cell, if any.
func (k *Kernel) interrupt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cancelCell != nil {
		k.cancelCell()
	}
}

func (k *Kernel) complete(r *wire.Request) {
	var c wire.CompleteRequest
	if !decode(r, &c) {
		return
	}
	pos := byteOffset(c.Code, c.CursorPos)
	comp := k.Complete(c.Code, pos)
	if comp.Matches == nil {
		comp.Matches = []string{}
		comp.Start, comp.End = pos, pos
	}
	r.Reply(wire.CompleteReply{Status: wire.StatusOK, Matches: comp.Matches,
		CursorStart: runeOffset(c.Code, comp.Start), CursorEnd: runeOffset(c.Code, comp.End),
		Metadata: orEmpty(comp.Metadata)})
}

// Complete returns the completions at byte offset cursor of code: magic
// names, flags and arguments, else the engine's.
func (k *Kernel) Complete(code string, cursor int) Completion {
	if _, ok := k.engine.(CellEngine); ok {
		return k.engine.Complete(code, cursor)
	}
	if comp, ok := k.completeMagic(code, cursor); ok {
		return comp
	}
	return k.engine.Complete(code, cursor)
}

// Inspect returns the help for the name at byte offset cursor of code: a
// magic's, else the engine's.
func (k *Kernel) Inspect(code string, cursor, detail int) Inspection {
	if _, ok := k.engine.(CellEngine); ok {
		return k.engine.Inspect(code, cursor, detail)
	}
	if in, ok := k.inspectMagic(code, cursor); ok {
		return in
	}
	return k.engine.Inspect(code, cursor, detail)
}

func (k *Kernel) inspect(r *wire.Request) {
	var c wire.InspectRequest
	if !decode(r, &c) {
		return
	}
	in := k.Inspect(c.Code, byteOffset(c.Code, c.CursorPos), c.DetailLevel)
	r.Reply(wire.InspectReply{Status: wire.StatusOK, Found: in.Found, Data: orEmpty(in.Data), Metadata: orEmpty(in.Metadata)})
}

func (k *Kernel) isComplete(r *wire.Request) {
	var c wire.IsCompleteRequest
	if !decode(r, &c) {
		return
	}
	status, indent := k.IsComplete(c.Code)
	reply := wire.IsCompleteReply{Status: status}
	if status == "incomplete" {
		reply.Indent = &indent
	}
	r.Reply(reply)
}

// IsComplete says whether code is a complete cell ("complete",
// "incomplete", "invalid", "unknown") and for "incomplete" the indent of
// the next line: a cell magic, or only line magics, is complete; the Go
// code between line magics decides otherwise.
func (k *Kernel) IsComplete(code string) (status, indent string) {
	if _, ok := k.engine.(CellEngine); ok {
		return k.engine.IsComplete(code)
	}
	status = "complete"
	segs := splitCell(code)
	if len(segs) == 0 || !segs[0].cell {
		var lines []string
		for _, seg := range segs {
			if seg.magic == "" {
				lines = append(lines, strings.TrimLeft(seg.body, "\n"))
			}
		}
		if len(lines) > 0 || len(segs) == 0 {
			status, indent = k.engine.IsComplete(strings.Join(lines, "\n"))
		}
	}
	return status, indent
}

// byteOffset converts a code-point index into a byte offset of s.
func byteOffset(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	i := 0
	for n := range s {
		if i == runes {
			return n
		}
		i++
	}
	return len(s)
}

// runeOffset converts a byte offset of s into a code-point index.
func runeOffset(s string, b int) int {
	b = max(0, min(b, len(s)))
	return utf8.RuneCountInString(s[:b])
}
