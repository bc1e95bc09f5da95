package nsysx

import "fmt"

var kernelNameOpts = []Option{
	{Name: "base", Flag: true, Help: "name kernels by their base (short) function name"},
	{Name: "mangled", Flag: true, Help: "name kernels by their mangled name, when the export has it"},
	{Name: "nvtx-name", Flag: true, Help: "prefix each kernel with the innermost NVTX range around its launch"},
}

func init() {
	register(&Report{Name: "cuda_gpu_kern_sum", Title: "CUDA GPU Kernel Summary", Aliases: []string{"gpukernsum"},
		Help:    "GPU kernels grouped by name: share of total GPU kernel time, total, count and duration statistics.",
		Options: kernelNameOpts, run: runKernSum(false)})
	register(&Report{Name: "cuda_gpu_kern_gb_sum", Title: "CUDA GPU Kernel/Grid/Block Summary",
		Help:    "GPU kernels grouped by name and launch geometry (grid and block sizes), with duration statistics.",
		Options: kernelNameOpts, run: runKernSum(true)})
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
		if r, skip := c.skipNoStrings(); skip {
			return r, nil
		}
		if !c.Has(tKernel) {
			return c.Skip(c.Path() + " does not contain CUDA kernel data.")
		}
		cols := []string{"start", "end"}
		if gb {
			cols = append(cols, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ")
		}
		k, err := c.Load(tKernel, cols...)
		if err != nil {
			return nil, err
		}
		names, skip, err := c.kernelNames()
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

// groupKernelDurations collects the kernels' durations per name (and launch
// geometry when gb); keys lists the groups in first-seen order.
func groupKernelDurations(k *Table, names *kernNames, gb bool) (map[kernSumKey]*Agg, []kernSumKey) {
	groups := map[kernSumKey]*Agg{}
	var keys []kernSumKey
	st, en := k.Col("start"), k.Col("end")
	for i := 0; i < k.N; i++ {
		kk := kernSumKey{name: names.ids[i]}
		if gb {
			kk.grid = geometry(k.Col("gridX"), k.Col("gridY"), k.Col("gridZ"), i)
			kk.blok = geometry(k.Col("blockX"), k.Col("blockY"), k.Col("blockZ"), i)
		}
		a := groups[kk]
		if a == nil {
			a = &Agg{}
			groups[kk] = a
			keys = append(keys, kk)
		}
		if d, ok := dur(st, en, i); ok {
			a.Add(d)
		} else {
			a.AddNull()
		}
	}
	return groups, keys
}
