package composite

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// MemsetName is the operation name the memory summaries give memset rows.
const MemsetName = "CUDA_MEMSET"

// MemOps are the memcpy rows (named by ENUM_CUDA_MEMCPY_OPER.name through
// a left join on copyKind) followed by the memset rows (named
// CUDA_MEMSET), as the memory summaries read them (docs/recipes.md §2.3).
type MemOps struct {
	Span      Span
	Bytes     []int64
	DeviceID  []int64
	Name      []string
	NameValid pyframe.Mask
}

// LoadMemOps loads the memory operations (MemOps) of p; a missing table
// is empty.
func LoadMemOps(ctx context.Context, p *nsysx.Profile) (*MemOps, error) {
	cols := []string{"start", "end", "bytes", "deviceId"}
	cp, err := LoadTable(ctx, p, TableMemcpy, append(cols, "copyKind"), nil)
	if err != nil {
		return nil, err
	}
	ms, err := LoadTable(ctx, p, TableMemset, cols, nil)
	if err != nil {
		return nil, err
	}
	kinds, err := copyKindNames(ctx, p)
	if err != nil {
		return nil, err
	}
	m := &MemOps{}
	for _, t := range []*nsysx.Table{cp, ms} {
		v, _ := Ints(t, "start")
		m.Span.Start = append(m.Span.Start, v...)
		v, _ = Ints(t, "end")
		m.Span.End = append(m.Span.End, v...)
		v, _ = Ints(t, "bytes")
		m.Bytes = append(m.Bytes, v...)
		v, _ = Ints(t, "deviceId")
		m.DeviceID = append(m.DeviceID, v...)
	}
	kind, kindValid := Ints(cp, "copyKind")
	for i, k := range kind {
		s, ok := kinds[k]
		m.Name = append(m.Name, s)
		m.NameValid = append(m.NameValid, ok && kindValid.Valid(i))
	}
	for i := 0; i < rows(ms); i++ {
		m.Name = append(m.Name, MemsetName)
		m.NameValid = append(m.NameValid, true)
	}
	if AllTrue(m.NameValid) {
		m.NameValid = nil
	}
	return m, nil
}

// copyKindNames maps ENUM_CUDA_MEMCPY_OPER ids to their names; a missing
// table maps nothing.
func copyKindNames(ctx context.Context, p *nsysx.Profile) (map[int64]string, error) {
	t, err := LoadTable(ctx, p, events.TableEnumCUDAMemcpyOper, []string{"id", "name"}, nil)
	if err != nil {
		return nil, err
	}
	ids, _ := Ints(t, "id")
	names, valid := TextCol(t, "name")
	out := map[int64]string{}
	for i, id := range ids {
		if _, dup := out[id]; !dup && valid.Valid(i) {
			out[id] = names[i]
		}
	}
	return out, nil
}
