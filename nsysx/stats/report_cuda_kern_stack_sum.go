package stats

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// cuda_kern_stack_sum: GPU kernel time by launching call stack and by
// function, over Profile.KernelStacks (an nsysx report; nsys has none).

func init() {
	register(&Report{Name: "cuda_kern_stack_sum", Title: "CUDA Kernel Time by Launching Call Stack",
		Help: "GPU kernel time attributed to the call stacks of the API calls that launched the kernels " +
			"(profiles taken with --cudabacktrace). view=functions (default), like pprof's top: each function's " +
			"self time (it is the innermost frame) and inclusive time (it is on the stack); view=stacks: one row " +
			"per distinct stack. Kernels without a stack count under \"" + NoStackFrame + "\", so the total is " +
			"cuda_gpu_kern_sum's. An nsysx report (nsys has none).",
		Options: []Option{
			{Name: "view", Default: "functions", Help: "functions (default) or stacks"},
			{Name: "noruntime", Flag: true, Help: "drop CUDA driver, runtime and profiler frames (libcupti, libcuda, libcudart, libToolsInjection)"},
			{Name: "foldpy", Flag: true, Help: "fold each run of Python interpreter frames into one " + PythonFrame + " frame"},
			{Name: "kernels", Flag: true, Help: "add each kernel's name as the innermost frame"},
			{Name: "base", Flag: true, Help: "with kernels: short kernel names"},
			{Name: "depth", Default: "0", Help: "keep the N innermost frames of each stack (0: all)"},
			{Name: "sort", Default: "self", Help: "view=functions: order by self (default) or inclusive time"},
		},
		Run: runKernStackSum})
}

func runKernStackSum(c *Ctx) (*Result, error) {
	view, err := choice(c, "view", "functions", "stacks")
	if err != nil {
		return nil, err
	}
	order, err := choice(c, "sort", "self", "inclusive")
	if err != nil {
		return nil, err
	}
	depth, err := c.IntOpt("depth", 0)
	if err != nil || depth < 0 {
		return nil, fmt.Errorf("%w for %s: depth must be a number >= 0", ErrBadOption, c.Report.Name)
	}
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if msg := stacksSkip(c); msg != "" {
		return c.Skip(msg)
	}
	if r, err := c.SetupFilter(); r != nil || err != nil {
		return r, err
	}
	o := StackOptions{NoRuntime: c.Flag("noruntime"), FoldPython: c.Flag("foldpy"), Kernels: c.Flag("kernels"),
		Base: c.Flag("base"), Depth: depth}
	ks, err := kernelStacks(c, o)
	if err != nil {
		return nil, err
	}
	if ks.Skipped != "" {
		return c.Skip(ks.Skipped)
	}
	if view == "stacks" {
		return stacksResult(c, ks), nil
	}
	return functionsResult(c, ks, order == "inclusive"), nil
}

// choice reads an option that takes one of a few values (the first is the
// default).
func choice(c *Ctx, name string, valid ...string) (string, error) {
	v, ok := c.Opt(name)
	if !ok || v == "" {
		return valid[0], nil
	}
	for _, x := range valid {
		if v == x {
			return v, nil
		}
	}
	return "", fmt.Errorf("%w for %s: %s=%q (valid: %s)%s", ErrBadOption, c.Report.Name, name, v,
		strings.Join(valid, ", "), Suggest(v, valid))
}

func functionsResult(c *Ctx, ks *KernelStacks, byInclusive bool) *Result {
	fns := ks.Functions()
	if byInclusive {
		sortFunctionsInclusive(fns)
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Self:ratio_%", "Self Time:dur_ns", "Sum:ratio_%",
		"Inclusive:ratio_%", "Inclusive Time:dur_ns", "Function", "Module")
	var sum int64
	for _, f := range fns {
		sum += f.Self
		res.Add(Pct(f.Self, ks.KernelTime), IntV(f.Self), Pct(sum, ks.KernelTime), Pct(f.Inclusive, ks.KernelTime),
			IntV(f.Inclusive), TextV(f.Function), moduleValue(f.Module))
	}
	return res
}

func sortFunctionsInclusive(fns []FunctionTime) {
	sort.SliceStable(fns, func(i, j int) bool {
		if fns[i].Inclusive != fns[j].Inclusive {
			return fns[i].Inclusive > fns[j].Inclusive
		}
		return fns[i].Self > fns[j].Self
	})
}

func moduleValue(m string) Value {
	if m == "" {
		return Null
	}
	return TextV(path.Base(m))
}

func stacksResult(c *Ctx, ks *KernelStacks) *Result {
	res := NewResult(c.Report.Name, c.Report.Title, "Time:ratio_%", "Total Time:dur_ns", "Instances", "Avg:dur_ns",
		"API Time:dur_ns", "Frames", "Stack")
	for _, s := range ks.Stacks {
		names := make([]string, len(s.Frames))
		for i, f := range s.Frames {
			names[i] = f.Function
		}
		res.Add(Pct(s.KernelTime, ks.KernelTime), IntV(s.KernelTime), IntV(s.Kernels),
			FloatV(Round1(float64(s.KernelTime)/float64(s.Kernels))), IntV(s.APITime), IntV(int64(len(s.Frames))),
			TextV(strings.Join(names, " ← ")))
	}
	return res
}
