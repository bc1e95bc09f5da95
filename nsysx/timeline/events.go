package timeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Kind is the source of an event.
type Kind uint8

// Event kinds.
const (
	KindAPI       Kind = iota + 1 // CUDA runtime/driver API call (CUPTI_ACTIVITY_KIND_RUNTIME)
	KindKernel                    // CUDA kernel
	KindMemcpy                    // CUDA memcpy
	KindMemset                    // CUDA memset
	KindNVTX                      // NVTX push/pop range
	KindNVTXAsync                 // NVTX start/end range (may overlap others)
	KindNVTXMark                  // NVTX mark (an instant)
	KindOSRT                      // OS runtime library call
	KindGraph                     // execution of a CUDA graph traced whole (nsysx.GraphExec): its kernels have no rows
	numKinds
)

var kindNames = [...]string{"", "cuda_api", "kernel", "memcpy", "memset", "nvtx", "nvtx", "nvtx", "osrt", "cuda_graph"}

// Category is the event's Trace Event Format category.
func (k Kind) Category() string { return kindNames[k] }

// GPU reports whether the kind runs on a GPU.
func (k Kind) GPU() bool {
	return k == KindKernel || k == KindMemcpy || k == KindMemset || k == KindGraph
}

// Track is one timeline row: a (process, thread) pair of the trace. Pid and
// Tid are the trace's ids: real ones for a process and the thread lane of
// its NVTX ranges, synthetic ones (2^22 and above, out of Linux's range) for
// the CUDA API and OS runtime lanes of a thread, GPUs and streams.
type Track struct {
	Pid, Tid                int64
	Process, Thread         string
	ProcessSort, ThreadSort int64
	GPU                     bool
}

// Arg is one event argument: an integer, or text when IsStr.
type Arg struct {
	Key   string
	Int   int64
	Str   string
	IsStr bool
}

// Event is one event. Sinks receive a reused Event: copy what they keep.
type Event struct {
	Kind       Kind
	Name       string
	Start, End int64 // ns; End == Start for marks
	Track      *Track
	Domain     string // NVTX domain, "" for the default one
	Color      uint32 // NVTX colour, ARGB, when HasColor
	HasColor   bool
	NCCL       bool    // an NCCL kernel or a range of the NCCL domain
	ID         int64   // async id of a start/end range
	FlowOut    []int64 // a CUDA API call: the flow ids to the GPU work it launched
	FlowIn     int64   // GPU work: the flow id from its API call, 0 for none
	Args       []Arg
}

// Sink receives a walk's tracks and events. Track is called once per track,
// before its first event.
type Sink interface {
	Track(t *Track) error
	Event(e *Event) error
}

// Stats counts what a walk delivered.
type Stats struct {
	Events   [numKinds]int
	Flows    int // API-call-to-GPU-work arrows
	Unclosed int // NVTX ranges without an end, left out
	Clamped  int // events whose end was before their start, given length 0
}

// Count is the number of events of a kind.
func (s *Stats) Count(k Kind) int { return s.Events[k] }

// Walk streams p's events, under f (nil: all of them; see nsysx.Filter for
// which rows a filter keeps), to sink: CUDA API calls, then GPU work
// (kernels, memcpys, memsets, then executions of CUDA graphs traced whole), then
// NVTX, then OS runtime calls, each table in its stored order. A table the
// profile lacks is skipped.
func Walk(ctx context.Context, p *nsysx.Profile, f *nsysx.Filter, sink Sink) (*Stats, error) {
	if ctx == nil {
		return nil, errors.New("timeline: nil context")
	}
	w, err := newWalker(ctx, p, f, sink)
	if err != nil {
		return nil, err
	}
	steps := []func() error{w.collectFlowKeys, w.api, w.gpu, w.nvtx, w.osrt}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	return &w.stats, nil
}

// scan is Profile.Scan that treats a missing table as empty.
func (w *walker) scan(table string, cols []string, fn func(r nsysx.ScanRow) error) error {
	if !w.p.HasTable(table) {
		return nil
	}
	err := w.p.Scan(w.ctx, table, w.f, cols, fn)
	var mt *nsysx.MissingTableError
	if errors.As(err, &mt) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", table, err)
	}
	return nil
}

// name returns StringIds[id], or fallback.
func (w *walker) name(id int64, fallback string) string {
	if s, ok := w.p.String(w.ctx, id); ok {
		return s
	}
	return fallback
}

// threadLabel is "NAME (TID)" or "Thread TID".
func threadLabel(name string, tid int64) string {
	if name = strings.TrimSpace(name); name == "" {
		return fmt.Sprintf("Thread %d", tid)
	}
	return fmt.Sprintf("%s (%d)", name, tid)
}

// Summary is one line counting the events and flows (CUDA graph executions
// only when there are some).
func (s *Stats) Summary() string {
	nvtx := s.Events[KindNVTX] + s.Events[KindNVTXAsync] + s.Events[KindNVTXMark]
	graphs := ""
	if n := s.Events[KindGraph]; n > 0 {
		graphs = fmt.Sprintf(", %d CUDA graph executions", n)
	}
	return fmt.Sprintf("%d CUDA API calls, %d kernels%s, %d memcpys, %d memsets, %d NVTX ranges and marks, %d OS runtime calls, %d flows",
		s.Events[KindAPI], s.Events[KindKernel], graphs, s.Events[KindMemcpy], s.Events[KindMemset], nvtx, s.Events[KindOSRT], s.Flows)
}
