package stats

import (
	"slices"

	"github.com/nsysx/nsysx/nsysx/events"
)

func init() {
	register(&Report{Name: "cuda_gpu_mem_time_sum", Title: "CUDA GPU MemOps Summary (by Time)", Aliases: []string{"gpumemtimesum"},
		Help: "GPU memory copies and memsets grouped by operation kind, with time statistics.",
		Run:  runMemSum(false)})
	register(&Report{Name: "cuda_gpu_mem_size_sum", Title: "CUDA GPU MemOps Summary (by Size)", Aliases: []string{"gpumemsizesum"},
		Help: "GPU memory copies and memsets grouped by operation kind, with size statistics (MB by default).",
		Run:  runMemSum(true)})
	register(&Report{Name: "cuda_gpu_sum", Title: "CUDA GPU Summary (Kernels/MemOps)", Aliases: []string{"gpusum"},
		Help:    "GPU kernels and memory operations together, grouped by name, with time statistics.",
		Options: kernelNameOpts, Run: runGPUSum(false)})
	register(&Report{Name: "cuda_api_gpu_sum", Title: "CUDA Summary (API/Kernels/MemOps)", Aliases: []string{"apigpusum"},
		Help:    "CUDA API calls, GPU kernels and memory operations together, grouped by name, with time statistics.",
		Options: kernelNameOpts, Run: runGPUSum(true)})
}

// namedDur is one duration (or size) sample with its group name and category.
type namedSamples struct {
	groups map[Value]*Agg
	cat    map[Value]string
	keys   []Value
}

func newNamedSamples() *namedSamples {
	return &namedSamples{groups: map[Value]*Agg{}, cat: map[Value]string{}}
}

func (n *namedSamples) add(name Value, cat string, v int64, ok bool) {
	addSample(n.group(name, cat), v, ok)
}

// group returns the group of name, starting it (of category cat) when it is
// new.
func (n *namedSamples) group(name Value, cat string) *Agg {
	a := n.groups[name]
	if a == nil {
		a = &Agg{}
		n.groups[name] = a
		n.cat[name] = cat
		n.keys = append(n.keys, name)
	}
	return a
}

// addSample adds v to a, or a NULL when !ok.
func addSample(a *Agg, v int64, ok bool) {
	if ok {
		a.Add(v)
	} else {
		a.AddNull()
	}
}

// addAPICalls adds the runtime calls of t to ns by their stripped name,
// resolving each nameId once: names met first in the same order as when
// every row is looked up.
func (ns *namedSamples) addAPICalls(c *Ctx, t *Table) {
	st, en, nm := t.Col("start"), t.Col("end"), t.Col("nameId")
	byID := map[int64]*Agg{}
	for i := 0; i < t.N; i++ {
		d, ok := dur(st, en, i)
		if nm == nil || nm.IsNull(i) {
			ns.add(stripV(c.Str(nm, i)), "CUDA_API", d, ok)
			continue
		}
		a := byID[nm.Ints[i]]
		if a == nil {
			a = ns.group(stripV(c.Str(nm, i)), "CUDA_API")
			byID[nm.Ints[i]] = a
		}
		addSample(a, d, ok)
	}
}

// addKernels adds the kernels of k to ns by name, each name's group looked
// up once. A first pass finds the groups (in the order of their first
// kernels) and counts their kernels, so that each group's values are
// allocated once rather than grown by copies.
func (ns *namedSamples) addKernels(k *Table, names *kernNames) {
	st, en := k.Col("start"), k.Col("end")
	byID := make([]*Agg, len(names.dict))
	count := make([]int, len(names.dict))
	for _, id := range names.ids[:k.N] {
		if byID[id] == nil {
			byID[id] = ns.group(names.dict[id], "CUDA_KERNEL")
		}
		count[id]++
	}
	need := map[*Agg]int{} // ids that share a name share its group
	for id, n := range count {
		if n > 0 {
			need[byID[id]] += n
		}
	}
	for a, n := range need {
		a.vals = slices.Grow(a.vals, n)
	}
	for i := 0; i < k.N; i++ {
		d, ok := dur(st, en, i)
		addSample(byID[names.ids[i]], d, ok)
	}
}

// memOps feeds every memcpy (inner-joined to the copy-kind enum) and memset
// into ns, as durations or sizes.
func memOps(c *Ctx, ns *namedSamples, size bool) error {
	if ok, err := streamMemOps(c, ns, size); ok || err != nil {
		return err
	}
	cols := []string{"start", "end"}
	if size {
		cols = []string{"bytes"}
	}
	if c.Has(tMemcpy) {
		names, err := memcpyNames(c)
		if err != nil {
			return err
		}
		t, err := memcpys(c).Load(append(cols, "copyKind")...)
		if err != nil {
			return err
		}
		ck := t.Col("copyKind")
		groups := map[int64]*Agg{} // by copyKind; nil: not a named kind
		addMemOps(t, size, func(i int) *Agg {
			if ck.IsNull(i) {
				return nil
			}
			k := ck.Int(i)
			a, seen := groups[k]
			if !seen {
				a = ns.memOpGroup(names, k)
				groups[k] = a
			}
			return a
		})
	}
	if c.Has(tMemset) {
		t, err := memsets(c).Load(cols...)
		if err != nil {
			return err
		}
		var a *Agg
		addMemOps(t, size, func(int) *Agg {
			if a == nil {
				a = ns.memOpGroup(nil, 0)
			}
			return a
		})
	}
	return nil
}

// memOpGroup is the group of the memcpys of copy kind k, named by names
// (nil for a kind names lacks), or, when names is nil, of the memsets.
func (ns *namedSamples) memOpGroup(names map[int64]string, k int64) *Agg {
	if names == nil {
		return ns.group(TextV("[CUDA memset]"), "MEMORY_OPER")
	}
	if n, ok := names[k]; ok {
		return ns.group(TextV(n), "MEMORY_OPER")
	}
	return nil
}

// addMemOps adds each row of the memcpy or memset table t to the group
// that group returns for it (none: the row is left out): its bytes when
// size, else its duration. Groups start at their first row, in table
// order, as they would with a lookup of every row's name.
func addMemOps(t *Table, size bool, group func(i int) *Agg) {
	b, st, en := t.Col("bytes"), t.Col("start"), t.Col("end")
	for i := 0; i < t.N; i++ {
		a := group(i)
		switch {
		case a == nil:
		case size:
			addSample(a, b.Int(i), !b.IsNull(i))
		default:
			v, ok := dur(st, en, i)
			addSample(a, v, ok)
		}
	}
}

func skipMemEnum(c *Ctx) (*Result, bool) {
	if c.Has(tMemcpy) && !c.Has(events.TableEnumCUDAMemcpyOper) {
		r, _ := c.Skip(c.Path() + " does not contain ENUM_CUDA_MEMCPY_OPER table.")
		return r, true
	}
	return nil, false
}

func runMemSum(size bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := skipMemEnum(c); skip {
			return r, nil
		}
		if !c.Has(tMemcpy) && !c.Has(tMemset) {
			return c.Skip(c.Path() + " does not contain GPU memory data.")
		}
		ns := newNamedSamples()
		if err := memOps(c, ns, size); err != nil {
			return nil, err
		}
		if size {
			res := NewResult(c.Report.Name, c.Report.Title, "Total:mem_B", "Count", "Avg:mem_B", "Med:mem_B", "Min:mem_B", "Max:mem_B", "StdDev:mem_B", "Operation")
			for _, k := range ns.keys {
				a := ns.groups[k]
				res.Add(a.Sum(), IntV(a.Count()), a.Avg(), a.Median(), a.Min(), a.Max(), a.Stdev(), k)
			}
			sortRows(res, byKeys(7))
			sortRows(res, byKeys(-1))
			return res, nil
		}
		return ns.summary(c, "Count", false), nil
	}
}

// summary renders STATS(d, count) + [Category] + name, ordered by total
// descending with ties by name.
func (ns *namedSamples) summary(c *Ctx, countLabel string, withCat bool) *Result {
	var grand int64
	for _, a := range ns.groups {
		grand = addInt(grand, a.Total())
	}
	cols := SummaryCols(countLabel)
	if withCat {
		cols = append(cols, "Category")
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(cols, "Operation")...)
	for _, k := range ns.keys {
		row := ns.groups[k].Summary(grand)
		if withCat {
			row = append(row, TextV(ns.cat[k]))
		}
		res.Add(append(row, k)...)
	}
	last := len(res.Cols) - 1
	sortRows(res, byKeys(last))
	sortRows(res, byKeys(-2))
	return res
}

func runGPUSum(withAPI bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.SkipNoStrings(); skip {
			return r, nil
		}
		ns := newNamedSamples()
		if withAPI && c.Has(tRuntime) && !ns.streamAPICalls(c) {
			t, err := apiCalls(c).Load("start", "end", "nameId")
			if err != nil {
				return nil, err
			}
			ns.addAPICalls(c, t)
		}
		if c.Has(tKernel) {
			k, err := kernels(c).Load(append([]string{"start", "end"}, kernelNameCols(c)...)...)
			if err != nil {
				return nil, err
			}
			names, skip, err := kernelNames(c)
			if skip != nil || err != nil {
				return skip, err
			}
			ns.addKernels(k, names)
		}
		if r, skip := skipMemEnum(c); skip {
			return r, nil
		}
		if !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset) && (!withAPI || !c.Has(tRuntime)) {
			if withAPI {
				return c.Skip(c.Path() + " does not contain CUDA API, GPU kernel, nor memory operations data.")
			}
			return c.Skip(c.Path() + " does not contain GPU kernel/memory operations data.")
		}
		if err := memOps(c, ns, false); err != nil {
			return nil, err
		}
		return ns.summary(c, "Instances", true), nil
	}
}
