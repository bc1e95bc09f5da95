package stats

import "fmt"

var kernelNameOpts = []Option{
	{Name: "base", Flag: true, Help: "name kernels by their base (short) function name"},
	{Name: "mangled", Flag: true, Help: "name kernels by their mangled name, when the export has it"},
	{Name: "nvtx-name", Flag: true, Help: "prefix each kernel with the innermost NVTX range around its launch"},
}

func init() {
	register(&Report{Name: "cuda_gpu_kern_sum", Title: "CUDA GPU Kernel Summary", Aliases: []string{"gpukernsum"},
		Help:    "GPU kernels grouped by name: share of total GPU kernel time, total, count and duration statistics.",
		Options: kernelNameOpts, Run: runKernSum(false)})
	register(&Report{Name: "cuda_gpu_kern_gb_sum", Title: "CUDA GPU Kernel/Grid/Block Summary",
		Help:    "GPU kernels grouped by name and launch geometry (grid and block sizes), with duration statistics.",
		Options: kernelNameOpts, Run: runKernSum(true)})
}

// geometry formats three dimensions as printf('%4d %4d %4d').
func geometry(x, y, z *Column, i int) string {
	d := func(c *Column) int64 {
		if c.IsNull(i) {
			return 0
		}
		return c.Ints[i]
	}
	return fmt.Sprintf("%4d %4d %4d", d(x), d(y), d(z))
}

func runKernSum(gb bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.SkipNoStrings(); skip {
			return r, nil
		}
		if !c.Has(tKernel) {
			return c.Skip(c.Path() + " does not contain CUDA kernel data.")
		}
		cols := []string{"start", "end"}
		if gb {
			cols = append(cols, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ")
		}
		k, err := kernels(c).Load(append(cols, kernelNameCols(c)...)...)
		if err != nil {
			return nil, err
		}
		names, skip, err := kernelNames(c)
		if skip != nil || err != nil {
			return skip, err
		}
		groups, keys := groupKernelDurations(k, names, gb)
		var grand int64
		for _, a := range groups {
			grand = addInt(grand, a.Total())
		}
		names2 := SummaryCols("Instances")
		if gb {
			names2 = append(names2, "GridXYZ", "BlockXYZ")
		}
		res := NewResult(c.Report.Name, c.Report.Title, append(names2, "Name")...)
		for _, kk := range keys {
			row := groups[kk].Summary(grand)
			if gb {
				row = append(row, TextV(kk.grid), TextV(kk.blok))
			}
			res.Add(append(row, names.dict[kk.name])...)
		}
		// natural order: by grouping key; then Total desc, Instances, Name.
		nameCol := len(res.Cols) - 1
		if gb {
			sortRows(res, byKeys(nameCol, 8, 9))
		} else {
			sortRows(res, byKeys(nameCol))
		}
		sortRows(res, byKeys(-2, 2, nameCol))
		return res, nil
	}
}

// kernSumKey groups cuda_gpu_kern_sum rows: the kernel name and, for
// cuda_gpu_kern_gb_sum, the grid and block sizes.
type kernSumKey struct {
	name       int32
	grid, blok string
}

// kernGeomKey is a kernSumKey before its sizes are formatted: the name and
// the six dimensions (NULL as 0, as geometry prints it).
type kernGeomKey struct {
	name int32
	dim  [6]int64
}

// groupKernelDurations collects the kernels' durations per name (and launch
// geometry when gb); keys lists the groups in first-seen order. The groups
// are keyed by the integers, the geometry strings formatted once per group.
func groupKernelDurations(k *Table, names *kernNames, gb bool) (map[kernSumKey]*Agg, []kernSumKey) {
	var dims []*Column
	if gb {
		for _, n := range []string{"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"} {
			dims = append(dims, k.Col(n))
		}
	}
	gkeys, aggs := groupKernGeom(k, names, dims)
	groups := make(map[kernSumKey]*Agg, len(gkeys))
	keys := make([]kernSumKey, len(gkeys))
	for i, g := range gkeys {
		keys[i] = kernSumKey{name: g.name}
		if gb {
			keys[i].grid = fmt.Sprintf("%4d %4d %4d", g.dim[0], g.dim[1], g.dim[2])
			keys[i].blok = fmt.Sprintf("%4d %4d %4d", g.dim[3], g.dim[4], g.dim[5])
		}
		groups[keys[i]] = aggs[i]
	}
	return groups, keys
}

// groupKernGeom groups the kernels' durations by name and the dimensions
// dims (none: by name alone), in first-seen order. Each name remembers its
// latest group, so that the map is hashed only when a name's launch
// geometry changes from one of its kernels to the next. The groups are
// found first and their values then stored in one array cut to their
// sizes (presizedAggs), instead of each group's slice growing by copies.
// kernChunkRows is the fewest kernels a chunk of groupKernGeom gets (a
// variable for the tests).
var kernChunkRows = 1 << 15

func groupKernGeom(k *Table, names *kernNames, dims []*Column) ([]kernGeomKey, []*Agg) {
	// one chunk of the kernels per core, each with groups of its own in
	// the order of their first kernels; merged in chunk order, the groups
	// keep the order of one pass, and each chunk's kernels are renumbered
	chunks, bounds := rowChunks(k.N, kernChunkRows)
	of := make([]int32, k.N) // per kernel: its group (its chunk's, then the report's)
	local := make([][]kernGeomKey, chunks)
	forEachGroup(chunks, func(c int) {
		gr := Grouper[kernGeomKey]{Dense: len(names.dict)}
		lo, hi := bounds(c)
		for i := lo; i < hi; i++ {
			kk := kernGeomKey{name: names.ids[i]}
			for j, c := range dims {
				if !c.IsNull(i) {
					kk.dim[j] = c.Ints[i]
				}
			}
			of[i] = gr.Group(kk, int(kk.name))
		}
		local[c] = gr.Keys
	})
	// the first chunk's groups come first, numbered alike
	all := Grouper[kernGeomKey]{}
	remap := make([][]int32, chunks)
	for c := 0; c < chunks; c++ {
		remap[c] = make([]int32, len(local[c]))
		for lg, kk := range local[c] {
			remap[c][lg] = all.Group(kk, -1)
		}
	}
	gkeys := all.Keys
	if chunks > 1 {
		forEachGroup(chunks-1, func(c int) {
			lo, hi := bounds(c + 1)
			m := remap[c+1]
			for i := lo; i < hi; i++ {
				of[i] = m[of[i]]
			}
		})
	}
	return gkeys, presizedAggs(len(gkeys), of, k.Col("start"), k.Col("end"))
}

// presizedAggs makes n groups of durations, row i of the columns start and
// end going to group of[i], in row order: a first pass counts each
// group's values, a second stores them into one array cut to those sizes.
func presizedAggs(n int, of []int32, st, en *Column) []*Agg {
	aggs := make([]Agg, n)
	count := make([]int, n)
	for i, g := range of {
		if st.IsNull(i) || en.IsNull(i) {
			aggs[g].nulls++
		} else {
			count[g]++
		}
	}
	all := make([]int64, 0, len(of))
	for g := range aggs {
		aggs[g].vals = all[len(all) : len(all) : len(all)+count[g]]
		all = all[:len(all)+count[g]]
	}
	out := make([]*Agg, n)
	for g := range aggs {
		out[g] = &aggs[g]
	}
	for i, g := range of {
		if d, ok := dur(st, en, i); ok {
			aggs[g].vals = append(aggs[g].vals, d)
		}
	}
	return out
}
