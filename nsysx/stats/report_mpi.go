package stats

import (
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
)

func init() {
	register(&Report{Name: "mpi_event_sum", Title: "MPI Event Summary",
		Help: "MPI calls grouped by kind (point-to-point, start/wait, collectives, other) and name: share of MPI time, " +
			"instances and duration statistics.",
		Run: runMPIEventSum})
	register(&Report{Name: "mpi_event_trace", Title: "MPI Event Trace",
		Help: "Every MPI call in start order with its process, thread, rank, peer or root rank, tag and message sizes.",
		Run:  runMPIEventTrace})
	register(&Report{Name: "mpi_msg_size_sum", Title: "MPI Message Size Summary",
		Help: "MPI message sizes grouped by kind (point-to-point, collective send, collective receive) and call name: " +
			"total volume, instances and size statistics.",
		Run: runMPIMsgSizeSum})
}

// The MPI event tables in nsys's union order, with the Source label each
// gets in mpi_event_sum.
var mpiTables = [...]struct{ table, source string }{
	{events.TableMPIP2PEvents, "p2p"},
	{events.TableMPIStartWaitEvents, "start-wait"},
	{events.TableMPIOtherEvents, "other"},
	{events.TableMPICollectivesEvents, "collectives"},
}

const noMPI = " does not contain MPI event data."

// srcGroups accumulates statistics per (source label, id) in first-seen
// order; rows() returns them in the natural GROUP BY order.
type srcGroups struct {
	idx  map[srcKey]int
	keys []srcKey
	aggs []*Agg
}

type srcKey struct {
	source string
	id     Value
}

func (g *srcGroups) get(source string, id Value) *Agg {
	if g.idx == nil {
		g.idx = map[srcKey]int{}
	}
	k := srcKey{source, id}
	i, ok := g.idx[k]
	if !ok {
		i = len(g.keys)
		g.idx[k] = i
		g.keys = append(g.keys, k)
		g.aggs = append(g.aggs, &Agg{})
	}
	return g.aggs[i]
}

// sorted returns group positions in GROUP BY order: source, then id.
func (g *srcGroups) sorted() []int {
	order := make([]int, len(g.keys))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		ka, kb := g.keys[order[a]], g.keys[order[b]]
		if ka.source != kb.source {
			return ka.source < kb.source
		}
		return Compare(ka.id, kb.id) < 0
	})
	return order
}

func strValue(c *Ctx, id Value) Value {
	if id.Kind != IntKind {
		return Null
	}
	if s, ok := c.String(id.I); ok {
		return TextV(s)
	}
	return Null
}

func runMPIEventSum(c *Ctx) (*Result, error) {
	if r, err := prologue(c); r != nil || err != nil {
		return r, err
	}
	var g srcGroups
	found := false
	for _, m := range mpiTables {
		if !c.Has(m.table) {
			continue
		}
		found = true
		t, err := c.View(m.table).Load("start", "end", "textId")
		if err != nil {
			return nil, err
		}
		st, en, id := t.Col("start"), t.Col("end"), t.Col("textId")
		for i := 0; i < t.N; i++ {
			a := g.get(m.source, nv(id, i))
			if d, ok := dur(st, en, i); ok {
				a.Add(d)
			} else {
				a.AddNull()
			}
		}
	}
	if !found {
		return c.Skip(c.Path() + noMPI)
	}
	order := g.sorted()
	var grand int64
	for _, a := range g.aggs {
		grand = addInt(grand, a.Total())
	}
	sums := make([]Value, len(g.aggs))
	for i, a := range g.aggs {
		sums[i] = a.Sum()
	}
	sort.SliceStable(order, func(a, b int) bool { return Compare(sums[order[a]], sums[order[b]]) > 0 })
	res := NewResult(c.Report.Name, c.Report.Title, append(SummaryCols("Instances"), "Source", "Name")...)
	for _, i := range order {
		res.Add(append(g.aggs[i].Summary(grand), TextV(g.keys[i].source), strValue(c, g.keys[i].id))...)
	}
	return res, nil
}

func runMPIEventTrace(c *Ctx) (*Result, error) {
	if r, err := prologueNeeding(c, events.TableMPIRanks, " does not contain MPI rank data."); r != nil || err != nil {
		return r, err
	}
	ranks, err := mpiRanks(c)
	if err != nil {
		return nil, err
	}
	evs, found, err := mpiEvents(c)
	if err != nil {
		return nil, err
	}
	if !found {
		return c.Skip(c.Path() + noMPI)
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Start:ts_ns", "End:ts_ns", "Duration:dur_ns", "Event", "Pid", "Tid",
		"Tag", "Rank", "PeerRank", "RootRank", "Size:mem_b", "CollSendSize:mem_b", "CollRecvSize:mem_b")
	for _, e := range evs {
		addMPIEvent(c, res, e, ranks)
	}
	return res, nil
}

// mpiRanks lists each thread's MPI ranks, by globalTid.
func mpiRanks(c *Ctx) (map[int64][]Value, error) {
	rk, err := c.LoadRaw(events.TableMPIRanks, "globalTid", "rank")
	if err != nil {
		return nil, err
	}
	ranks := map[int64][]Value{}
	for i := 0; i < rk.N; i++ {
		if g := rk.Col("globalTid"); !g.IsNull(i) {
			ranks[g.Int(i)] = append(ranks[g.Int(i)], nv(rk.Col("rank"), i))
		}
	}
	return ranks, nil
}

// mpiEvent is row i of MPI table w (an index in mpiTables).
type mpiEvent struct {
	t *Table
	i int
	w int
}

// mpiEvents lists the events of every MPI table in start order (stable);
// found is false when the profile has none of the tables.
func mpiEvents(c *Ctx) (evs []mpiEvent, found bool, err error) {
	for w, m := range mpiTables {
		if !c.Has(m.table) {
			continue
		}
		found = true
		cols := []string{"start", "end", "globalTid", "textId"}
		switch w {
		case 0:
			cols = append(cols, "size", "tag", "remoteRank")
		case 3:
			cols = append(cols, "size", "recvSize", "rootRank")
		}
		t, err := c.View(m.table).Load(cols...)
		if err != nil {
			return nil, false, err
		}
		for i := 0; i < t.N; i++ {
			evs = append(evs, mpiEvent{t, i, w})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool {
		return Compare(nv(evs[a].t.Col("start"), evs[a].i), nv(evs[b].t.Col("start"), evs[b].i)) < 0
	})
	return evs, found, nil
}

// addMPIEvent adds event e's rows: one per rank of its thread (one with a
// NULL rank when it has none).
func addMPIEvent(c *Ctx, res *Result, e mpiEvent, ranks map[int64][]Value) {
	t, i := e.t, e.i
	st, en, g := t.Col("start"), t.Col("end"), t.Col("globalTid")
	d := Null
	if v, ok := dur(st, en, i); ok {
		d = IntV(v)
	}
	pid, tid := Null, Null
	var rs []Value
	if !g.IsNull(i) {
		pid, tid = IntV(gPID(g.Int(i))), IntV(gTID(g.Int(i)))
		rs = ranks[g.Int(i)]
	}
	tag, peer, root, size, send, recv := Null, Null, Null, Null, Null, Null
	switch e.w {
	case 0:
		tag, peer, size = nv(t.Col("tag"), i), nv(t.Col("remoteRank"), i), nv(t.Col("size"), i)
	case 3:
		root, send, recv = nv(t.Col("rootRank"), i), nv(t.Col("size"), i), nv(t.Col("recvSize"), i)
	}
	if len(rs) == 0 {
		rs = []Value{Null}
	}
	for _, r := range rs {
		res.Add(nv(st, i), nv(en, i), d, strValue(c, nv(t.Col("textId"), i)), pid, tid, tag, r, peer, root, size, send, recv)
	}
}

func runMPIMsgSizeSum(c *Ctx) (*Result, error) {
	if r, err := prologue(c); r != nil || err != nil {
		return r, err
	}
	var g srcGroups
	add := func(source string, t *Table, col string, skipNull bool) {
		id, v := t.Col("textId"), t.Col(col)
		for i := 0; i < t.N; i++ {
			if v.IsNull(i) {
				if skipNull {
					continue
				}
				g.get(source, nv(id, i)).AddNull()
				continue
			}
			g.get(source, nv(id, i)).Add(v.Int(i))
		}
	}
	found := false
	if c.Has(events.TableMPIP2PEvents) {
		found = true
		t, err := c.View(events.TableMPIP2PEvents).Load("textId", "size")
		if err != nil {
			return nil, err
		}
		add("p2p", t, "size", false)
	}
	if c.Has(events.TableMPICollectivesEvents) {
		found = true
		t, err := c.View(events.TableMPICollectivesEvents).Load("textId", "size", "recvSize")
		if err != nil {
			return nil, err
		}
		add("coll_send", t, "size", true)
		add("coll_recv", t, "recvSize", true)
	}
	if !found {
		return c.Skip(c.Path() + noMPI)
	}
	order := g.sorted()
	sort.SliceStable(order, func(a, b int) bool { return g.aggs[order[a]].Count() > g.aggs[order[b]].Count() })
	res := NewResult(c.Report.Name, c.Report.Title, "Total Message Volume:B", "Instances", "Avg:B", "Med:B", "Min:B",
		"Max:B", "StdDev:B", "Source", "Name")
	for _, i := range order {
		a := g.aggs[i]
		res.Add(a.Sum(), IntV(a.Count()), R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()),
			TextV(g.keys[i].source), strValue(c, g.keys[i].id))
	}
	return res, nil
}
