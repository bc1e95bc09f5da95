package composite

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// CUPTI tables the composites read.
const (
	TableKernel  = events.TableKernel
	TableMemcpy  = events.TableMemcpy
	TableMemset  = events.TableMemset
	TableRuntime = events.TableRuntime
)

// Kernel is the CUDA_KERNEL composite (docs/recipes.md §1.9): the kernel
// table in row order with its names resolved through StringIds.
type Kernel struct {
	Start, End               []int64
	CorrelationID            []int64
	CorrelationIDValid       pyframe.Mask
	GlobalPid, PID           []int64
	GlobalPidValid           pyframe.Mask
	DeviceID                 []int64
	ShortName, MangledName   []string
	DemangledName            []string
	ShortValid, MangledValid pyframe.Mask
	DemangledValid           pyframe.Mask
}

// Len is the number of rows.
func (k *Kernel) Len() int { return len(k.Start) }

// Span returns the kernel times for the frame filter.
func (k *Kernel) Span() Span { return Span{Start: k.Start, End: k.End} }

// LoadKernel reads the CUDA_KERNEL composite; no kernel table gives an
// empty one.
func LoadKernel(ctx context.Context, p *nsysx.Profile) (*Kernel, error) {
	return LoadKernelCols(ctx, p, kernelAll)
}

// kernelCols says which CUDA_KERNEL columns a recipe reads besides start,
// end and deviceId; the others stay unloaded (nil, their masks nil).
type kernelCols uint8

const (
	KernelShort kernelCols = 1 << iota // shortName
	KernelPid                          // globalPid (and PID)
	kernelAll   = 0xff                 // every column of LoadKernel
)

// LoadKernelCols reads the columns of the CUDA_KERNEL composite that need names.
func LoadKernelCols(ctx context.Context, p *nsysx.Profile, need kernelCols) (*Kernel, error) {
	cols, optional := []string{"start", "end", "deviceId"}, []string(nil)
	if need&KernelShort != 0 {
		cols = append(cols, "shortName")
	}
	if need&KernelPid != 0 {
		optional = append(optional, "globalPid")
	}
	if need == kernelAll {
		cols, optional = append(cols, "demangledName"), append(optional, "correlationId", "mangledName")
	}
	t, err := LoadTable(ctx, p, TableKernel, cols, optional)
	if err != nil {
		return nil, err
	}
	k := &Kernel{}
	k.Start, _ = Ints(t, "start")
	k.End, _ = Ints(t, "end")
	k.DeviceID, _ = Ints(t, "deviceId")
	if need&KernelPid != 0 {
		k.GlobalPid, k.GlobalPidValid = Ints(t, "globalPid")
		k.PID = Derive(k.GlobalPid, PidOf)
	}
	if need&KernelShort != 0 { // kernelAll has the bit too
		if k.ShortName, k.ShortValid, err = IDText(ctx, p, t, "shortName"); err != nil {
			return nil, err
		}
	}
	if need == kernelAll {
		k.CorrelationID, k.CorrelationIDValid = Ints(t, "correlationId")
		k.MangledName, k.MangledValid = strs(ctx, p, t, "mangledName")
		k.DemangledName, k.DemangledValid = strs(ctx, p, t, "demangledName")
	}
	return k, nil
}

// GPUKind says which table a CUDA_GPU row comes from.
type GPUKind uint8

// The CUDA_GPU sources, in stacking order.
const (
	GPUKernel GPUKind = iota
	GPUMemcpy
	GPUMemset
)

// GPU is the CUDA_GPU composite (docs/recipes.md §1.9): kernel, memcpy and
// memset rows stacked in that order. Kind is each row's table and Row its
// position there (its pandas label, which the stacking does not renumber).
type GPU struct {
	Start, End          []int64
	CorrelationID       []int64
	CorrelationIDValid  pyframe.Mask
	GlobalPid, PID      []int64
	GlobalPidValid      pyframe.Mask
	DeviceID, ContextID []int64
	GreenContextID      []int64
	GreenContextIDValid pyframe.Mask
	StreamID            []int64
	Kind                []GPUKind
	Row                 []int
}

// Len is the number of rows.
func (g *GPU) Len() int { return len(g.Start) }

// Span returns the GPU times for the frame filter.
func (g *GPU) Span() Span { return Span{Start: g.Start, End: g.End} }

// LoadGPU reads the CUDA_GPU composite; missing tables add no rows.
func LoadGPU(ctx context.Context, p *nsysx.Profile) (*GPU, error) {
	g := &GPU{}
	for kind, table := range []string{TableKernel, TableMemcpy, TableMemset} {
		t, err := LoadTable(ctx, p, table,
			[]string{"start", "end", "deviceId", "contextId", "streamId"},
			[]string{"correlationId", "globalPid", "greenContextId"})
		if err != nil {
			return nil, err
		}
		g.add(t, GPUKind(kind))
	}
	g.PID = Derive(g.GlobalPid, PidOf)
	return g, nil
}

// add appends one source table's rows.
func (g *GPU) add(t *nsysx.Table, kind GPUKind) {
	n, base := rows(t), g.Len()
	app := func(dst []int64, m pyframe.Mask, name string) ([]int64, pyframe.Mask) {
		v, vm := Ints(t, name)
		return append(dst, v...), appendMask(m, base, vm, n)
	}
	g.Start, _ = app(g.Start, nil, "start")
	g.End, _ = app(g.End, nil, "end")
	g.DeviceID, _ = app(g.DeviceID, nil, "deviceId")
	g.ContextID, _ = app(g.ContextID, nil, "contextId")
	g.StreamID, _ = app(g.StreamID, nil, "streamId")
	g.CorrelationID, g.CorrelationIDValid = app(g.CorrelationID, g.CorrelationIDValid, "correlationId")
	g.GlobalPid, g.GlobalPidValid = app(g.GlobalPid, g.GlobalPidValid, "globalPid")
	g.GreenContextID, g.GreenContextIDValid = app(g.GreenContextID, g.GreenContextIDValid, "greenContextId")
	for i := 0; i < n; i++ {
		g.Kind = append(g.Kind, kind)
		g.Row = append(g.Row, i)
	}
}

// appendMask appends the n-row mask add to the base-row mask m, keeping nil
// while both have no NULLs.
func appendMask(m pyframe.Mask, base int, add pyframe.Mask, n int) pyframe.Mask {
	if m == nil && add == nil {
		return nil
	}
	if m == nil {
		m = make(pyframe.Mask, base, base+n)
		for i := range m {
			m[i] = true
		}
	}
	if add == nil {
		for i := 0; i < n; i++ {
			m = append(m, true)
		}
		return m
	}
	return append(m, add...)
}
