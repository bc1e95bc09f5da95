package critpath

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
)

// addSyncs gives each synchronising call the GPU work it waits for, and
// each stream wait the op it waits for: cudaDeviceSynchronize waits for
// the last op launched before it on every stream of its process,
// cudaStreamSynchronize for that of its stream, cudaEventSynchronize and
// cudaStreamWaitEvent for the op the event's record followed (the
// SYNCHRONIZATION and CUDA_EVENT tables name the stream and the record).
// Without those tables a stream or event synchronisation waits as a
// device synchronisation does.
func (g *graph) addSyncs(ctx context.Context, corr map[uint64]int32, classes map[int32]apiClass) error {
	syncs, err := events.Syncs(ctx, g.p.Profile)
	if err != nil {
		return err
	}
	recs, err := events.EventRecords(ctx, g.p.Profile)
	if err != nil {
		return err
	}
	byCall := map[int32]events.Sync{}
	for _, s := range syncs {
		if c, ok := corr[corrKey(s.Process, s.Correlation)]; ok && s.Correlation != 0 {
			byCall[c] = s
		}
	}
	type recKey struct{ pid, id, sync int64 }
	rec := map[recKey]events.EventRecord{}
	for _, r := range recs {
		rec[recKey{r.Process.PID(), r.EventID, r.EventSync}] = r
	}
	si := g.index()
	// recorded is the op an event's record followed; -1 when unknown.
	recorded := func(pid int64, s events.Sync) int32 {
		r, ok := rec[recKey{pid, s.EventID, s.EventSync}]
		if !ok {
			return -1
		}
		c, ok := corr[corrKey(r.Process, r.Correlation)]
		li := g.streamLane(si, pid, r.Stream)
		if !ok || li < 0 {
			return -1
		}
		return g.last(si, li, g.nodes[c].start)
	}
	opWaits := map[int32][]int32{}
	for c, cl := range classes {
		n := &g.nodes[c]
		pid := g.lanes[n.lane].thread.PID()
		s, has := byCall[c]
		var w []int32
		switch cl.sync {
		case "stream":
			if li := g.streamLane(si, pid, s.Stream); has && li >= 0 {
				if x := g.last(si, li, n.start); x >= 0 {
					w = []int32{x}
				}
				break
			}
			w = g.deviceWaits(si, pid, n.start)
		case "event":
			if x := recorded(pid, s); has && x >= 0 {
				w = []int32{x}
				break
			}
			w = g.deviceWaits(si, pid, n.start)
		case "device":
			w = g.deviceWaits(si, pid, n.start)
		case "wait":
			x, li := recorded(pid, s), g.streamLane(si, pid, s.Stream)
			if !has || x < 0 || li < 0 {
				continue
			}
			if y := g.next(si, li, n.start); y >= 0 {
				opWaits[y] = append(opWaits[y], x)
			}
			continue
		default:
			continue
		}
		if len(w) > 0 {
			g.setWaits(c, w)
			n.class = cSync
		}
	}
	for y, w := range opWaits {
		g.setWaits(y, w)
	}
	return nil
}

// deviceWaits is the last op launched before t on each stream of pid.
func (g *graph) deviceWaits(si *streamIndex, pid, t int64) []int32 {
	var w []int32
	for _, li := range si.lanes[pid] {
		if x := g.last(si, li, t); x >= 0 {
			w = append(w, x)
		}
	}
	return w
}

// next is the first op of lane li launched at or after t; -1 for none.
func (g *graph) next(si *streamIndex, li int32, t int64) int32 {
	ts := si.at[li]
	if k := sort.Search(len(ts), func(i int) bool { return ts[i] >= t }); k < len(ts) {
		return g.lanes[li].nodes[k]
	}
	return -1
}
