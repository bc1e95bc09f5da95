package composite

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// Combined is the CUDA_COMBINED composite (docs/recipes.md §1.9): every
// runtime call joined with the GPU operations it launched, on
// (correlationId, pid), in runtime row order, each call followed by its GPU
// rows in CUDA_GPU order. Start/End are the API call's times, GPUStart and
// GPUEnd the operation's; GPURow indexes the CUDA_GPU composite and
// RuntimeRow the runtime table.
//
// Rows with a NULL correlationId or pid join nothing (pandas would match
// NaN keys with each other; no export has such rows).
type Combined struct {
	Start, End          []int64
	GPUStart, GPUEnd    []int64
	GlobalTid, PID, TID []int64
	CorrelationID       []int64
	Name                []string
	NameValid           pyframe.Mask
	StreamID, DeviceID  []int64
	ContextID           []int64
	GreenContextID      []int64
	GreenContextIDValid pyframe.Mask
	Kind                []GPUKind
	GPURow, RuntimeRow  []int
}

// Len is the number of rows.
func (c *Combined) Len() int { return len(c.Start) }

// Span returns the GPU times (gpu_start/gpu_end), which the projection
// recipes filter on.
func (c *Combined) Span() Span { return Span{Start: c.GPUStart, End: c.GPUEnd} }

// LoadCombined reads the runtime table and joins it with gpu (read with
// LoadGPU when nil).
func LoadCombined(ctx context.Context, p *nsysx.Profile, gpu *GPU) (*Combined, error) {
	var err error
	if gpu == nil {
		if gpu, err = LoadGPU(ctx, p); err != nil {
			return nil, err
		}
	}
	rt, err := loadRuntimeCalls(ctx, p)
	if err != nil {
		return nil, err
	}
	j := newGPUJoin(gpu)
	heads := make([]int32, len(rt.start)) // each call's first GPU row, -1 when none
	n := 0                                // the joined rows, to size the columns once
	for i := range rt.start {
		heads[i] = -1
		if rt.joinable(i) {
			heads[i] = j.first(PidOf(rt.gtid[i]), rt.corr[i])
			n += j.count(heads[i], PidOf(rt.gtid[i]), rt.corr[i])
		}
	}
	c := newCombined(n)
	for i := range rt.start {
		pid := PidOf(rt.gtid[i])
		for g := heads[i]; g >= 0; g = j.next[g] {
			if !j.is(int(g), pid, rt.corr[i]) {
				continue
			}
			c.add(gpu, int(g), i, rt.start[i], rt.end[i], rt.gtid[i], rt.corr[i])
			c.Name = append(c.Name, rt.name[i])
			c.NameValid = append(c.NameValid, rt.nameValid.Valid(i))
		}
	}
	if AllTrue(c.NameValid) {
		c.NameValid = nil
	}
	if AllTrue(c.GreenContextIDValid) {
		c.GreenContextIDValid = nil
	}
	return c, nil
}

// gpuJoin finds the GPU rows of a (pid, correlationId) key: a map from
// the key packed in 64 bits to the key's first row, and a chain of the rows
// sharing a packed key in row order (a chain may hold rows of other keys
// whose packing collides: is tells them apart). One map of integers instead
// of a slice per key: the join of a large report's 170 K kernels took a
// third of nvtx_gpu_proj_trace's projection.
type gpuJoin struct {
	g    *GPU
	head map[uint64]int32
	next []int32
}

func packJoinKey(pid, corr int64) uint64 { return uint64(pid)<<40 ^ uint64(corr) }

func newGPUJoin(g *GPU) *gpuJoin {
	j := &gpuJoin{g: g, head: map[uint64]int32{}, next: make([]int32, g.Len())}
	for i := g.Len() - 1; i >= 0; i-- { // backwards: each row goes in front of the later ones
		j.next[i] = -1
		if g.CorrelationIDValid.Valid(i) && g.GlobalPidValid.Valid(i) {
			k := packJoinKey(g.PID[i], g.CorrelationID[i])
			if h, ok := j.head[k]; ok {
				j.next[i] = h
			}
			j.head[k] = int32(i)
		}
	}
	return j
}

// first is the chain of the key's packed value, -1 when none.
func (j *gpuJoin) first(pid, corr int64) int32 {
	if h, ok := j.head[packJoinKey(pid, corr)]; ok {
		return h
	}
	return -1
}

// is reports whether GPU row i has the key.
func (j *gpuJoin) is(i int, pid, corr int64) bool {
	return j.g.PID[i] == pid && j.g.CorrelationID[i] == corr
}

// count is the rows of the key on the chain from h.
func (j *gpuJoin) count(h int32, pid, corr int64) int {
	n := 0
	for g := h; g >= 0; g = j.next[g] {
		if j.is(int(g), pid, corr) {
			n++
		}
	}
	return n
}

// runtimeCalls are the runtime table's columns the CUDA joins read.
type runtimeCalls struct {
	start, end, corr, gtid []int64
	corrValid, gtidValid   pyframe.Mask
	name                   []string
	nameValid              pyframe.Mask
}

// loadRuntimeCalls reads the runtime calls with their names.
func loadRuntimeCalls(ctx context.Context, p *nsysx.Profile) (*runtimeCalls, error) {
	t, err := LoadTable(ctx, p, TableRuntime,
		[]string{"start", "end", "nameId"}, []string{"correlationId", "globalTid"})
	if err != nil {
		return nil, err
	}
	r := &runtimeCalls{}
	r.start, r.end, r.gtid, r.gtidValid = eventCols(t)
	r.corr, r.corrValid = Ints(t, "correlationId")
	if r.name, r.nameValid, err = IDText(ctx, p, t, "nameId"); err != nil {
		return nil, err
	}
	return r, nil
}

// joinable reports whether call i has both join keys (correlationId and
// globalTid non-NULL).
func (r *runtimeCalls) joinable(i int) bool { return r.corrValid.Valid(i) && r.gtidValid.Valid(i) }

// newCombined returns an empty composite with room for n rows.
func newCombined(n int) *Combined {
	i := func() []int64 { return make([]int64, 0, n) }
	return &Combined{
		Start: i(), End: i(), GPUStart: i(), GPUEnd: i(), GlobalTid: i(), PID: i(), TID: i(),
		CorrelationID: i(), StreamID: i(), DeviceID: i(), ContextID: i(), GreenContextID: i(),
		Name: make([]string, 0, n), NameValid: make(pyframe.Mask, 0, n), GreenContextIDValid: make(pyframe.Mask, 0, n),
		Kind: make([]GPUKind, 0, n), GPURow: make([]int, 0, n), RuntimeRow: make([]int, 0, n),
	}
}

func (c *Combined) add(g *GPU, j, i int, start, end, gtid, corr int64) {
	c.Start = append(c.Start, start)
	c.End = append(c.End, end)
	c.GPUStart = append(c.GPUStart, g.Start[j])
	c.GPUEnd = append(c.GPUEnd, g.End[j])
	c.GlobalTid = append(c.GlobalTid, gtid)
	c.PID = append(c.PID, PidOf(gtid))
	c.TID = append(c.TID, TidOf(gtid))
	c.CorrelationID = append(c.CorrelationID, corr)
	c.StreamID = append(c.StreamID, g.StreamID[j])
	c.DeviceID = append(c.DeviceID, g.DeviceID[j])
	c.ContextID = append(c.ContextID, g.ContextID[j])
	c.GreenContextID = append(c.GreenContextID, g.GreenContextID[j])
	c.GreenContextIDValid = append(c.GreenContextIDValid, g.GreenContextIDValid.Valid(j))
	c.Kind = append(c.Kind, g.Kind[j])
	c.GPURow = append(c.GPURow, j)
	c.RuntimeRow = append(c.RuntimeRow, i)
}

func AllTrue(m pyframe.Mask) bool {
	for _, v := range m {
		if !v {
			return false
		}
	}
	return true
}

// MPI tables, in the order the MPI composite stacks them.
var MPITables = []string{events.TableMPIP2PEvents, events.TableMPIStartWaitEvents, events.TableMPIOtherEvents, events.TableMPICollectivesEvents}

// MPI is the MPI composite (docs/recipes.md §1.9): the four MPI event
// tables stacked, sorted by start and renumbered, with text resolved from
// textId.
//
// nsys sorts with an unstable sort; here ties keep the stacking order
// (p2p, start-wait, other, collectives), which only matters for the
// summation order of equal-start rows.
type MPI struct {
	Start, End          []int64
	GlobalTid, PID, TID []int64
	Text                []string
	TextValid           pyframe.Mask
}

// Len is the number of rows.
func (m *MPI) Len() int { return len(m.Start) }

// Span returns the MPI times for the frame filter.
func (m *MPI) Span() Span { return Span{Start: m.Start, End: m.End} }

// LoadMPI reads the MPI composite; a report without MPI tables gives an
// empty one.
func LoadMPI(ctx context.Context, p *nsysx.Profile) (*MPI, error) {
	var start, end, gtid []int64
	var text []string
	var tv pyframe.Mask
	for _, table := range MPITables {
		t, err := LoadTable(ctx, p, table, []string{"start", "end"}, []string{"globalTid", "textId"})
		if err != nil {
			return nil, err
		}
		s, e, g, _ := eventCols(t)
		x, xv, err := IDText(ctx, p, t, "textId")
		if err != nil {
			return nil, err
		}
		tv = appendMask(tv, len(start), xv, len(s))
		start, end, gtid = append(start, s...), append(end, e...), append(gtid, g...)
		text = append(text, x...)
	}
	order := pyframe.Seq(len(start))
	sort.SliceStable(order, func(a, b int) bool { return start[order[a]] < start[order[b]] })
	return &MPI{
		Start:     pyframe.Pick(start, order),
		End:       pyframe.Pick(end, order),
		GlobalTid: pyframe.Pick(gtid, order),
		PID:       Derive(pyframe.Pick(gtid, order), PidOf),
		TID:       Derive(pyframe.Pick(gtid, order), TidOf),
		Text:      pyframe.Pick(text, order),
		TextValid: tv.Pick(order),
	}, nil
}
