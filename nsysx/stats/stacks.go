package stats

// Kernel time by launching call stack (an nsysx analysis; nsys has none).
// Profiles taken with --cudabacktrace carry a call stack on CUDA API calls:
// CUPTI_ACTIVITY_KIND_RUNTIME.callchainId names the rows of
// CUDA_CALLCHAINS (stackDepth 0 is the innermost frame), and kernels join
// their launch call through correlationId.

import (
	"cmp"
	"context"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// NoStackFrame is the placeholder frame of kernels whose launch call has no
// recorded call stack, so that stack totals equal cuda_gpu_kern_sum's.
const NoStackFrame = "[no call stack recorded]"

// PythonFrame replaces a run of Python interpreter frames under
// StackOptions.FoldPython.
const PythonFrame = "[python]"

// noStacksHint says which nsys flags record call stacks.
const noStacksHint = "record them with nsys profile --trace=cuda --cudabacktrace=all " +
	"(all:0 to include calls shorter than the default 80 µs threshold) and CPU sampling on " +
	"(--sample=process-tree, --backtrace=dwarf)"

// StackFrame is one frame of a call stack.
type StackFrame struct {
	Function string // symbol, or "[module]" (its base name) when unresolved
	Module   string // the module's path
	Address  uint64 // the instruction pointer, 0 when unknown
}

// StackOptions shapes the stacks.
type StackOptions struct {
	NoRuntime  bool    // drop frames of the CUDA driver, runtime and profiler (libcupti, libcuda, libcudart, libToolsInjection)
	FoldPython bool    // fold each run of Python interpreter frames into one PythonFrame
	Kernels    bool    // add the kernel's name as the innermost frame (module "[GPU]")
	Base       bool    // with Kernels: short kernel names
	Depth      int     // keep the innermost Depth frames (after dropping and folding); 0 keeps all
	Filter     *Filter // optional time or NVTX window
}

// KernelStack is the kernels launched from one call stack.
type KernelStack struct {
	Frames     []StackFrame // innermost first
	Kernels    int64
	KernelTime int64 // ns of GPU kernel time
	APITime    int64 // ns in the launch calls (each call once)
}

// KernelStacks is the result of Profile.KernelStacks.
type KernelStacks struct {
	Stacks     []KernelStack // largest kernel time first
	KernelTime int64         // every kernel's time, with or without a stack
	Skipped    string        // why there are no stacks ("" when there are)
}

var runtimeModule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(libcupti|libcuda\.|libcudart|libToolsInjection)`) })

var pythonModule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(lib)?python[0-9.]*(\.so.*)?$`) })

// KernelStacks sums GPU kernel time by launching call stack.
func KernelStacksOf(ctx context.Context, p *model.Profile, o StackOptions) (*KernelStacks, error) {
	opts := map[string]string{}
	if o.Base {
		opts["base"] = ""
	}
	return report.RunTyped(ctx, p, "cuda_kern_stack_sum", opts, o.Filter,
		func(msg string) *KernelStacks { return &KernelStacks{Skipped: msg} },
		func(c *Ctx) (*KernelStacks, error) { return kernelStacks(c, o) })
}

// stacksSkip is the SKIPPED message for a profile without kernels or
// without call stacks, or "".
func stacksSkip(c *Ctx) string {
	switch {
	case !c.Has(tKernel):
		return c.Path() + " does not contain CUDA kernel data."
	case !c.Has(tRuntime):
		return c.Path() + " does not contain CUDA API data."
	case !c.Has(events.TableCUDACallchains) || !c.P.HasColumn(tRuntime, "callchainId"):
		return c.Path() + " does not contain CUDA API call stacks (CUDA_CALLCHAINS); " + noStacksHint + "."
	}
	return ""
}

type stackAcc struct {
	frames []StackFrame
	acc    KernelStack
}

func kernelStacks(c *Ctx, o StackOptions) (*KernelStacks, error) {
	if msg := stacksSkip(c); msg != "" {
		return &KernelStacks{Skipped: msg}, nil
	}
	chains, err := loadCallchains(c)
	if err != nil {
		return nil, err
	}
	rt, err := c.LoadRaw(tRuntime, "start", "end", "globalTid", "correlationId", "callchainId")
	if err != nil {
		return nil, err
	}
	launch := map[opKey]int{}
	// Launch calls are read unfiltered: a kernel in the window may have
	// been launched before it. With --cudabacktrace, nsys records a backtraced call twice under one
	// correlation id: the outer row carries the stack.
	rg, rc, rcc := rt.Col("globalTid"), rt.Col("correlationId"), rt.Col("callchainId")
	pidless := pidless(c)
	for i := 0; i < rt.N; i++ {
		if rc.IsNull(i) || !pidless && rg.IsNull(i) {
			continue
		}
		k := callKey(rg.Int(i), rc.Int(i), pidless)
		if j, dup := launch[k]; !dup || rcc.IsNull(j) && !rcc.IsNull(i) {
			launch[k] = i
		}
	}
	kn, _, err := kernelNames(c)
	if err != nil {
		return nil, err
	}
	kt, err := kernels(c).Load("start", "end", "correlationId")
	if err != nil {
		return nil, err
	}
	keys, err := opKeys(c, tKernel, kt)
	if err != nil {
		return nil, err
	}
	return groupStacks(c, o, chains, rt, launch, kn, kt, keys), nil
}

func groupStacks(c *Ctx, o StackOptions, chains map[int64][]StackFrame, rt *Table, launch map[opKey]int,
	kn *kernNames, kt *Table, keys func(int) opKey) *KernelStacks {
	out := &KernelStacks{}
	groups := map[string]*stackAcc{}
	shaped := map[int64][]StackFrame{}
	seenCall := map[int]bool{}
	ks, ke := kt.Col("start"), kt.Col("end")
	rs, re, rcc := rt.Col("start"), rt.Col("end"), rt.Col("callchainId")
	for i := 0; i < kt.N; i++ {
		if ks.IsNull(i) || ke.IsNull(i) {
			continue
		}
		d := ke.Int(i) - ks.Int(i)
		out.KernelTime += d
		frames := []StackFrame{{Function: NoStackFrame}}
		r, ok := launch[keys(i)]
		if ok && !rcc.IsNull(r) {
			id := rcc.Int(r)
			f, done := shaped[id]
			if !done {
				f = shapeStack(chains[id], o)
				shaped[id] = f
			}
			if len(f) > 0 {
				frames = f
			}
		}
		if o.Kernels {
			frames = append([]StackFrame{{Function: kn.at(i).S, Module: "[GPU]"}}, frames...)
		}
		key := stackKey(frames)
		g := groups[key]
		if g == nil {
			g = &stackAcc{frames: frames}
			groups[key] = g
		}
		g.acc.Kernels++
		g.acc.KernelTime += d
		if ok && !seenCall[r] {
			seenCall[r] = true
			g.acc.APITime += re.Int(r) - rs.Int(r)
		}
	}
	for _, g := range groups {
		g.acc.Frames = g.frames
		out.Stacks = append(out.Stacks, g.acc)
	}
	sort.Slice(out.Stacks, func(i, j int) bool {
		a, b := out.Stacks[i], out.Stacks[j]
		if a.KernelTime != b.KernelTime {
			return a.KernelTime > b.KernelTime
		}
		return stackKey(a.Frames) < stackKey(b.Frames)
	})
	return out
}

func stackKey(frames []StackFrame) string {
	var b strings.Builder
	for _, f := range frames {
		b.WriteString(f.Function)
		b.WriteByte(0)
		b.WriteString(f.Module)
		b.WriteByte(1)
	}
	return b.String()
}

// loadCallchains reads CUDA_CALLCHAINS into frames by id, innermost first.
func loadCallchains(c *Ctx) (map[int64][]StackFrame, error) {
	cols := []string{"id", "symbol", "module", "stackDepth"}
	for _, col := range []string{"originalIP", "unresolved"} {
		if c.P.HasColumn(events.TableCUDACallchains, col) {
			cols = append(cols, col)
		}
	}
	t, err := c.LoadRaw(events.TableCUDACallchains, cols...)
	if err != nil {
		return nil, err
	}
	id, sym, mod, depth, ip := t.Col("id"), t.Col("symbol"), t.Col("module"), t.Col("stackDepth"), t.Col("originalIP")
	type row struct {
		depth int64
		f     StackFrame
	}
	rows := map[int64][]row{}
	unres := t.Col("unresolved")
	for i := 0; i < t.N; i++ {
		f := StackFrame{Function: c.Str(sym, i).S, Module: c.Str(mod, i).S}
		if ip != nil && !ip.IsNull(i) {
			f.Address = uint64(ip.Int(i))
		}
		// An unresolved frame, or one with an empty symbol, is named after
		// its module (as pprof names a function without a name after its
		// mapping), so that a library's unnamed frames add up as one
		// function.
		if unres != nil && !unres.IsNull(i) && unres.Int(i) != 0 || unres == nil && strings.HasPrefix(f.Function, "0x") || f.Function == "" {
			f.Function = "[unknown]"
			if f.Module != "" {
				f.Function = "[" + path.Base(f.Module) + "]"
			}
		}
		rows[id.Int(i)] = append(rows[id.Int(i)], row{depth.Int(i), f})
	}
	out := make(map[int64][]StackFrame, len(rows))
	for k, rs := range rows {
		sort.Slice(rs, func(i, j int) bool { return rs[i].depth < rs[j].depth })
		fs := make([]StackFrame, len(rs))
		for i, r := range rs {
			fs[i] = r.f
		}
		out[k] = fs
	}
	return out, nil
}

// shapeStack applies NoRuntime, FoldPython and Depth to an innermost-first
// stack.
func shapeStack(frames []StackFrame, o StackOptions) []StackFrame {
	out := make([]StackFrame, 0, len(frames))
	for _, f := range frames {
		base := path.Base(f.Module)
		if o.NoRuntime && runtimeModule().MatchString(base) {
			continue
		}
		if o.FoldPython && pythonModule().MatchString(base) {
			if n := len(out); n > 0 && out[n-1].Function == PythonFrame {
				continue
			}
			f = StackFrame{Function: PythonFrame, Module: f.Module}
		}
		if n := len(out); n > 0 && f.Function == out[n-1].Function && f.Module == out[n-1].Module && strings.HasPrefix(f.Function, "[") {
			continue // a run of one module's unresolved frames
		}
		out = append(out, f)
	}
	if o.Depth > 0 && len(out) > o.Depth {
		out = out[:o.Depth]
	}
	return out
}

// FunctionTime is one function's share of kernel time, like a row of
// pprof's top: Self counts stacks whose innermost frame is the function,
// Inclusive every stack it appears in (once per stack).
type FunctionTime struct {
	Function, Module string
	Self, Inclusive  int64
}

// Functions sums the stacks by function, largest self time first (then
// inclusive time, then name).
func (ks *KernelStacks) Functions() []FunctionTime {
	type key struct{ fn, mod string }
	idx := map[key]*FunctionTime{}
	get := func(f StackFrame) *FunctionTime {
		k := key{f.Function, f.Module}
		ft := idx[k]
		if ft == nil {
			ft = &FunctionTime{Function: f.Function, Module: f.Module}
			idx[k] = ft
		}
		return ft
	}
	for _, s := range ks.Stacks {
		seen := map[key]bool{}
		for i, f := range s.Frames {
			ft := get(f)
			if i == 0 {
				ft.Self += s.KernelTime
			}
			if k := (key{f.Function, f.Module}); !seen[k] {
				seen[k] = true
				ft.Inclusive += s.KernelTime
			}
		}
	}
	return sortedValues(idx, func(a, b FunctionTime) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(b.Inclusive, a.Inclusive),
			strings.Compare(a.Function+a.Module, b.Function+b.Module))
	})
}
