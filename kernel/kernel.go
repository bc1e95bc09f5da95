package kernel

import (
	"context"
	"fmt"
	"io"
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
// by the frontend or ctx is cancelled.
func Run(ctx context.Context, connectionFile string, engine Engine) error {
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
		_ = r.Reply(k.kernelInfo())
	case "execute_request":
		k.execute(ctx, r)
	case "complete_request":
		k.complete(r)
	case "inspect_request":
		k.inspect(r)
	case "is_complete_request":
		k.isComplete(r)
	case "history_request":
		var q historyRequest
		_ = r.Msg.DecodeContent(&q)
		_ = r.Reply(map[string]any{"status": "ok", "history": k.history.query(q)})
	case "comm_info_request":
		_ = r.Reply(map[string]any{"status": "ok", "comms": map[string]any{}})
	case "comm_open":
		// No comm targets: close it right away, as the protocol asks.
		var c struct {
			CommID string `json:"comm_id"`
		}
		_ = r.Msg.DecodeContent(&c)
		_ = r.Publish("comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	case "comm_msg", "comm_close":
		// nothing is open
	case "interrupt_request":
		k.interrupt()
		_ = r.Reply(map[string]any{"status": "ok"})
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = r.Msg.DecodeContent(&c)
		k.interrupt()
		content := map[string]any{"status": "ok", "restart": c.Restart}
		_ = r.Reply(content)
		_ = r.Publish("shutdown_reply", content)
		r.Shutdown()
	default:
		if strings.HasSuffix(r.Msg.Type(), "_request") {
			_ = r.Reply(wire.ErrorContent("UnknownRequest", "unsupported message type "+r.Msg.Type()))
		}
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	banner := "nsysx " + Version + " — Go kernel (" + runtime.Version() + ")"
	if b, ok := k.engine.(Bannerer); ok {
		banner = b.Banner()
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       wire.ProtocolVersion,
		"implementation":         "nsysx",
		"implementation_version": Version,
		"language_info": map[string]any{
			"name":               "go",
			"version":            strings.TrimPrefix(runtime.Version(), "go"),
			"mimetype":           "text/x-go",
			"file_extension":     ".go",
			"pygments_lexer":     "go",
			"codemirror_mode":    "go",
			"nbconvert_exporter": "",
		},
		"banner":             banner,
		"help_links":         []any{},
		"supported_features": []any{},
		"debugger":           false,
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

type codeCursor struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
	Detail    int    `json:"detail_level"`
}

func (k *Kernel) complete(r *wire.Request) {
	var c codeCursor
	_ = r.Msg.DecodeContent(&c)
	pos := byteOffset(c.Code, c.CursorPos)
	comp := k.Complete(c.Code, pos)
	if comp.Matches == nil {
		comp.Matches = []string{}
		comp.Start, comp.End = pos, pos
	}
	_ = r.Reply(map[string]any{"status": "ok", "matches": comp.Matches,
		"cursor_start": runeOffset(c.Code, comp.Start), "cursor_end": runeOffset(c.Code, comp.End),
		"metadata": orEmpty(comp.Metadata)})
}

// Complete returns the completions at byte offset cursor of code: magic
// names, flags and arguments, else the engine's.
func (k *Kernel) Complete(code string, cursor int) Completion {
	if comp, ok := k.completeMagic(code, cursor); ok {
		return comp
	}
	return k.engine.Complete(code, cursor)
}

// Inspect returns the help for the name at byte offset cursor of code: a
// magic's, else the engine's.
func (k *Kernel) Inspect(code string, cursor, detail int) Inspection {
	if in, ok := k.inspectMagic(code, cursor); ok {
		return in
	}
	return k.engine.Inspect(code, cursor, detail)
}

func (k *Kernel) inspect(r *wire.Request) {
	var c codeCursor
	_ = r.Msg.DecodeContent(&c)
	in := k.Inspect(c.Code, byteOffset(c.Code, c.CursorPos), c.Detail)
	_ = r.Reply(map[string]any{"status": "ok", "found": in.Found,
		"data": orEmpty(in.Data), "metadata": orEmpty(in.Metadata)})
}

func (k *Kernel) isComplete(r *wire.Request) {
	var c codeCursor
	_ = r.Msg.DecodeContent(&c)
	status, indent := "complete", "" // a cell magic, or only line magics
	segs := splitCell(c.Code)
	if len(segs) == 0 || !segs[0].cell {
		// the Go code between the line magics decides
		var code []string
		for _, seg := range segs {
			if seg.magic == "" {
				code = append(code, strings.TrimLeft(seg.body, "\n"))
			}
		}
		if len(code) > 0 || len(segs) == 0 {
			status, indent = k.engine.IsComplete(strings.Join(code, "\n"))
		}
	}
	content := map[string]any{"status": status}
	if status == "incomplete" {
		content["indent"] = indent
	}
	_ = r.Reply(content)
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
