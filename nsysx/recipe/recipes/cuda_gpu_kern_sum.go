package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// mapKernSum describes the filtered kernels' positive durations by short
// name, and by (short name, device) (docs/recipes.md §2.2).
func mapKernSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if part, ok, err := streamKernSum(ctx, r, o); ok {
		return part, err
	}
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	rows := positive(k.Span(), keep)
	dur := durations(k.Span(), rows, false)
	name := nameCol("Name", k.ShortName, k.ShortValid, rows)
	dev := pyframe.NewInts("Device ID", pyframe.Uint32, pyframe.Pick(k.DeviceID, rows), nil)
	return recipe.StatsPart(pyframe.Describe([]*pyframe.Column{name}, dur), pyframe.Describe([]*pyframe.Column{name, dev}, dur)), nil
}

// kernSumKey is a (shortName id, device) group of the streamed kernels;
// null: the id is NULL.
type kernSumKey struct {
	id, dev int64
	null    bool
}

// kernSumScan is the positive durations of the streamed kernels in row
// order, each with its (shortName id, device) group.
type kernSumScan struct {
	dur    []int64
	gid    []int32
	groups []kernSumKey
	index  map[kernSumKey]int32
	latest []int32 // by small id: its latest group + 1
}

// group is key's group, a new one when it is the first of its key. Each
// small id remembers its latest group, so that the map is hashed only when
// an id's device changes from one of its kernels to the next.
func (s *kernSumScan) group(key kernSumKey) int32 {
	small := !key.null && key.id >= 0 && key.id < 1<<16
	if small && int(key.id) < len(s.latest) {
		if g := s.latest[key.id] - 1; g >= 0 && s.groups[g] == key {
			return g
		}
	}
	g, seen := s.index[key]
	if !seen {
		g = s.add(key)
	}
	if small {
		if int(key.id) >= len(s.latest) {
			s.latest = append(s.latest, make([]int32, int(key.id)+1-len(s.latest))...)
		}
		s.latest[key.id] = g + 1
	}
	return g
}

// add makes key's group.
func (s *kernSumScan) add(key kernSumKey) int32 {
	if s.index == nil {
		s.index = map[kernSumKey]int32{}
	}
	s.index[key] = int32(len(s.groups))
	s.groups = append(s.groups, key)
	return s.index[key]
}

// streamKernSum is mapKernSum over the kernels streamed by scanKernels,
// grouped by their integers (name ids, devices) as they are read, with the
// names resolved once per id: no column is loaded, resolved or picked. ok
// is false when the scan does not apply, or when two ids name the same
// kernel (their groups would merge): then mapKernSum loads.
func streamKernSum(ctx context.Context, r *recipe.Report, o *recipe.Options) (part *recipe.Part, ok bool, err error) {
	var s kernSumScan
	n, ok := composite.ScanKernels(ctx, r.Profile, o, "shortName", func(k composite.KernRow) bool {
		if d := pyframe.Elapsed(k.End, k.Start); d > 0 {
			s.dur, s.gid = composite.Push(s.dur, d), composite.Push(s.gid, s.group(kernSumKey{k.X, k.Dev, k.XNull}))
		}
		return true
	})
	if !ok {
		return nil, false, nil
	}
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, true, err
	}
	if n == 0 {
		part, err = noData(o, r)
		return part, true, err
	}
	names, named, ok := s.names(ctx, r)
	if !ok {
		return nil, false, nil
	}
	return s.describe(names, named), true, nil
}

// names resolves each group's name id: named[g] is group g's name, -1 for
// NULL (a NULL id or one StringIds lacks), as an index into names, which
// lists the distinct names ascending. ok is false when two ids share a name.
func (s *kernSumScan) names(ctx context.Context, r *recipe.Report) (names []string, named []int32, ok bool) {
	byID := map[int64]int32{}
	byName := map[string]int64{}
	named = make([]int32, len(s.groups))
	for g, key := range s.groups {
		named[g] = -1
		if key.null {
			continue
		}
		if j, seen := byID[key.id]; seen {
			named[g] = j
			continue
		}
		name, found := r.Profile.String(ctx, key.id)
		byID[key.id] = -1
		if !found {
			continue
		}
		if id, dup := byName[name]; dup && id != key.id {
			return nil, nil, false
		}
		byName[name] = key.id
		byID[key.id] = int32(len(names))
		named[g] = int32(len(names))
		names = append(names, name)
	}
	// Renumber by name order.
	ranked := append(make([]string, 0, len(names)), names...)
	sort.Strings(ranked)
	rank := make([]int32, len(names))
	for j, name := range names {
		rank[j] = int32(sort.SearchStrings(ranked, name))
	}
	for g, j := range named {
		if j >= 0 {
			named[g] = rank[j]
		}
	}
	return ranked, named, true
}

// describe is the stats part: by name, then by (name, device), each
// group's durations in row order. The Name index column carries a mask
// (all valid) when some duration's name is NULL, as Describe's key pick of
// a masked column does.
func (s *kernSumScan) describe(names []string, named []int32) *recipe.Part {
	dur := pyframe.NewInts("duration", pyframe.Int64, s.dur, nil)
	masked := false
	for _, j := range named {
		masked = masked || j < 0
	}
	nameIndex := func(v []string) *pyframe.Column {
		c := pyframe.NewStrings("Name", v, nil)
		if masked {
			c.Valid = make(pyframe.Mask, len(v))
			for i := range c.Valid {
				c.Valid[i] = true
			}
		}
		return c
	}
	order, starts := groupOrder(s.gid, named, len(names), nil)
	stats := pyframe.DescribeGrouped(dur, order, starts, []*pyframe.Column{nameIndex(names)})

	// (name, device) groups in key order: name rank, then device (signed, as
	// Describe orders a Uint32 key).
	var pairs []int32
	for g, j := range named {
		if j >= 0 {
			pairs = append(pairs, int32(g))
		}
	}
	sort.Slice(pairs, func(a, b int) bool {
		ga, gb := pairs[a], pairs[b]
		if named[ga] != named[gb] {
			return named[ga] < named[gb]
		}
		return s.groups[ga].dev < s.groups[gb].dev
	})
	to := make([]int32, len(s.groups))
	for g := range to {
		to[g] = -1
	}
	pairNames, devs := make([]string, len(pairs)), make([]int64, len(pairs))
	for r, g := range pairs {
		to[g] = int32(r)
		pairNames[r], devs[r] = names[named[g]], s.groups[g].dev
	}
	index := []*pyframe.Column{nameIndex(pairNames), pyframe.NewInts("Device ID", pyframe.Uint32, devs, nil)}
	if len(pairs) == len(names) {
		// One device per name: the groups, and so the statistics, are the
		// names'.
		return recipe.StatsPart(stats, withIndex(stats, len(pyframe.StatNames), index))
	}
	order, starts = groupOrder(s.gid, to, len(pairs), order)
	return recipe.StatsPart(stats, pyframe.DescribeGrouped(dur, order, starts, index))
}

// groupOrder sorts the positions of gid into ng output groups (counting
// sort): position j goes to group to[gid[j]], none when that is −1, and
// order[starts[g]:starts[g+1]] are group g's positions ascending. order's
// storage is reused when it is large enough.
func groupOrder(gid, to []int32, ng int, order []int) ([]int, []int) {
	starts := make([]int, ng+1)
	for _, g := range gid {
		if o := to[g]; o >= 0 {
			starts[o+1]++
		}
	}
	for g := 1; g <= ng; g++ {
		starts[g] += starts[g-1]
	}
	if cap(order) < starts[ng] {
		order = make([]int, starts[ng])
	}
	order = order[:starts[ng]]
	fill := append([]int(nil), starts[:ng]...)
	for j, g := range gid {
		if o := to[g]; o >= 0 {
			order[fill[o]] = j
			fill[o]++
		}
	}
	return order, starts
}

// withIndex is a copy of f's first n columns with the index columns index.
func withIndex(f *pyframe.Frame, n int, index []*pyframe.Column) *pyframe.Frame {
	out := &pyframe.Frame{Index: pyframe.NamedIndex}
	all := pyframe.Seq(f.Rows())
	for _, c := range f.Cols[:n] {
		out.Cols = append(out.Cols, c.Pick(all))
	}
	for _, c := range index {
		out.Cols = append(out.Cols, c)
		out.IndexCols = append(out.IndexCols, c.Name)
	}
	return out
}
