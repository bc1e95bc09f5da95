// Package stackprof writes the GPU kernel time of an Nsight Systems profile,
// attributed to the call stacks that launched the kernels
// (nsysx.Profile.KernelStacks), as a pprof profile, so that `go tool pprof
// -http`, Speedscope and Pyroscope can explore it.
//
// Sample values are, in order: kernels (count), api_time (nanoseconds in the
// launch calls) and gpu_time (nanoseconds of kernel time), the default
// sample type. Kernels whose launch call has no recorded stack sit under
// the frame nsysx.NoStackFrame, so the gpu_time total equals
// cuda_gpu_kern_sum's.
package stackprof

import (
	"context"
	"fmt"

	"github.com/google/pprof/profile"
	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// SkippedError says why a profile has no stacks to export (its Error names
// the nsys flags that record them).
type SkippedError struct{ Msg string }

func (e *SkippedError) Error() string { return "SKIPPED: " + e.Msg }

// Build makes the pprof profile of p's kernel stacks.
func Build(ctx context.Context, p *nsysx.Profile, o nsysx.StackOptions) (*profile.Profile, error) {
	ks, err := p.KernelStacks(ctx, o)
	if err != nil {
		return nil, err
	}
	if ks.Skipped != "" {
		return nil, &SkippedError{ks.Skipped}
	}
	b := newBuilder()
	b.prof.Comments = []string{"nsysx: GPU kernel time by launching call stack of " + p.Base()}
	if b.prof.TimeNanos, err = firstInt(ctx, p, events.TableTargetInfoSessionStartTime, "utcEpochNs"); err != nil {
		return nil, err
	}
	if b.prof.DurationNanos, err = firstInt(ctx, p, events.TableAnalysisDetails, "duration"); err != nil {
		return nil, err
	}
	for _, s := range ks.Stacks {
		locs := make([]*profile.Location, len(s.Frames))
		for i, f := range s.Frames {
			locs[i] = b.location(f)
		}
		b.prof.Sample = append(b.prof.Sample, &profile.Sample{Location: locs,
			Value: []int64{s.Kernels, s.APITime, s.KernelTime}})
	}
	if err := b.prof.CheckValid(); err != nil {
		return nil, fmt.Errorf("building the pprof profile: %w", err)
	}
	return b.prof, nil
}

// WriteFile writes BASE.pb.gz (gzipped protobuf), replacing an existing
// file, and returns its name.
func WriteFile(ctx context.Context, p *nsysx.Profile, base string, o nsysx.StackOptions) (string, error) {
	prof, err := Build(ctx, p, o)
	if err != nil {
		return "", err
	}
	name := base + ".pb.gz"
	// Through a temporary renamed at the end: a failed write leaves an
	// existing file as it was (whether it may be replaced is the caller's
	// rule, docs/outputs.md §2).
	if err := atomicfile.WriteFile(name, prof.Write); err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	return name, nil
}

type funcKey struct{ name, module string }

type builder struct {
	prof  *profile.Profile
	maps  map[string]*profile.Mapping
	funcs map[funcKey]*profile.Function
	locs  map[funcKey]*profile.Location
}

func newBuilder() *builder {
	return &builder{
		prof: &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "kernels", Unit: "count"}, {Type: "api_time", Unit: "nanoseconds"},
				{Type: "gpu_time", Unit: "nanoseconds"}},
			DefaultSampleType: "gpu_time",
		},
		maps: map[string]*profile.Mapping{}, funcs: map[funcKey]*profile.Function{}, locs: map[funcKey]*profile.Location{},
	}
}

// location returns the one location of a (function, module) pair.
func (b *builder) location(f nsysx.StackFrame) *profile.Location {
	k := funcKey{f.Function, f.Module}
	if l := b.locs[k]; l != nil {
		return l
	}
	fn := b.funcs[k]
	if fn == nil {
		fn = &profile.Function{ID: uint64(len(b.prof.Function) + 1), Name: f.Function, SystemName: f.Function}
		b.funcs[k] = fn
		b.prof.Function = append(b.prof.Function, fn)
	}
	l := &profile.Location{ID: uint64(len(b.prof.Location) + 1), Mapping: b.mapping(f.Module),
		Line: []profile.Line{{Function: fn}}}
	b.locs[k] = l
	b.prof.Location = append(b.prof.Location, l)
	return l
}

func (b *builder) mapping(module string) *profile.Mapping {
	if module == "" {
		return nil
	}
	if m := b.maps[module]; m != nil {
		return m
	}
	m := &profile.Mapping{ID: uint64(len(b.prof.Mapping) + 1), File: module, HasFunctions: true}
	b.maps[module] = m
	b.prof.Mapping = append(b.prof.Mapping, m)
	return m
}

// firstInt is the first row's value of table.col, 0 when absent; a table
// that cannot be read is Load's error (naming it).
func firstInt(ctx context.Context, p *nsysx.Profile, table, col string) (int64, error) {
	if !p.HasColumn(table, col) {
		return 0, nil
	}
	t, err := p.Load(ctx, table, col)
	if err != nil || t.N == 0 || t.Col(col).IsNull(0) {
		return 0, err
	}
	return t.Col(col).Int(0), nil
}
