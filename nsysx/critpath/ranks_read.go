package critpath

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// rankData is what one rank's report contributes, on the job's clock once
// shifted.
type rankData struct {
	path    string
	session events.Session
	// lanes are the NCCL kernels per (process, device, stream), each in
	// start order, the lanes in the order of their first kernel: a
	// stream carries one communicator's collectives in the order every
	// rank of it runs them.
	lanes [][]ncclKernel
	// busy is, per device, the merged intervals during which a GPU
	// operation other than an NCCL kernel ran.
	busy map[int64][][2]int64
	// ops are the GPU operations with a known launch: the iteration
	// projection.
	ops []launchedOp
	// iters are the NVTX iteration windows, in start order.
	iters []window
}

type ncclKernel struct {
	start, end, launch int64 // launch: -1 when unknown
	device             int64
	name               string
}

type launchedOp struct{ start, end, launch int64 }

type window struct {
	name       string
	start, end int64
}

// readRank reads one report; isIteration tells the names of the NVTX
// ranges that mark iterations.
func readRank(ctx context.Context, p *nsysx.Profile, isIteration func(name string) bool) (*rankData, error) {
	m := p.Profile
	s, err := events.SessionOf(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	if !s.OK {
		return nil, fmt.Errorf("%s: no session start time (%s): its clock cannot be aligned with the other ranks'", p.Path, events.TableTargetInfoSessionStartTime)
	}
	ops, err := events.GPUOps(ctx, m, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	launches, err := events.Launches(ctx, m, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	strs, err := m.Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	r := &rankData{path: p.Path, session: s, busy: map[int64][][2]int64{}}
	lanes := map[[3]int64][]ncclKernel{}
	for i, op := range ops {
		if launches[i] >= 0 {
			r.ops = append(r.ops, launchedOp{op.Start, op.End, launches[i]})
		}
		if name := strs[op.Name]; op.Kind == events.OpKernel && strings.HasPrefix(name, "nccl") {
			k := [3]int64{op.Process.Upper(), op.Device, op.Stream}
			lanes[k] = append(lanes[k], ncclKernel{op.Start, op.End, launches[i], op.Device, name})
			continue
		}
		r.busy[op.Device] = append(r.busy[op.Device], [2]int64{op.Start, op.End})
	}
	for _, l := range lanes {
		slices.SortStableFunc(l, func(a, b ncclKernel) int { return cmp.Compare(a.start, b.start) })
		r.lanes = append(r.lanes, l)
	}
	slices.SortFunc(r.lanes, func(a, b []ncclKernel) int { return cmp.Compare(a[0].start, b[0].start) })
	for d, iv := range r.busy {
		r.busy[d] = merge(iv)
	}
	if r.iters, err = iterations(ctx, m, isIteration); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	return r, nil
}

// shift adds d to every time of r.
func (r *rankData) shift(d int64) {
	for _, l := range r.lanes {
		for i := range l {
			l[i].start += d
			l[i].end += d
			if l[i].launch >= 0 {
				l[i].launch += d
			}
		}
	}
	for _, iv := range r.busy {
		for i := range iv {
			iv[i][0] += d
			iv[i][1] += d
		}
	}
	for i := range r.ops {
		r.ops[i].start += d
		r.ops[i].end += d
		r.ops[i].launch += d
	}
	for i := range r.iters {
		r.iters[i].start += d
		r.iters[i].end += d
	}
}

// merge sorts intervals and merges those that overlap or touch.
func merge(iv [][2]int64) [][2]int64 {
	slices.SortFunc(iv, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	out := iv[:0]
	for _, x := range iv {
		if n := len(out); n > 0 && x[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], x[1])
			continue
		}
		out = append(out, x)
	}
	return out
}

// covered is how much of [a, b) the merged intervals iv cover.
func covered(iv [][2]int64, a, b int64) int64 {
	i, _ := slices.BinarySearchFunc(iv, a, func(x [2]int64, t int64) int { return cmp.Compare(x[1], t+1) })
	var n int64
	for ; i < len(iv) && iv[i][0] < b; i++ {
		n += max(0, min(iv[i][1], b)-max(iv[i][0], a))
	}
	return n
}
