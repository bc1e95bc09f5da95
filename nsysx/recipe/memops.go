package recipe

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
)

// MemsetName is the operation name the memory summaries give memset rows.
const MemsetName = "CUDA_MEMSET"

// memOps are the memcpy rows (named by ENUM_CUDA_MEMCPY_OPER.name through
// a left join on copyKind) followed by the memset rows (named
// CUDA_MEMSET), as the memory summaries read them (docs/recipes.md §2.3).
type memOps struct {
	s         Span
	bytes     []int64
	deviceID  []int64
	name      []string
	nameValid Mask
}

func loadMemOps(ctx context.Context, p *nsysx.Profile) (*memOps, error) {
	cols := []string{"start", "end", "bytes", "deviceId"}
	cp, err := loadTable(ctx, p, TableMemcpy, append(cols, "copyKind"), nil)
	if err != nil {
		return nil, err
	}
	ms, err := loadTable(ctx, p, TableMemset, cols, nil)
	if err != nil {
		return nil, err
	}
	kinds, err := copyKindNames(ctx, p)
	if err != nil {
		return nil, err
	}
	m := &memOps{}
	for _, t := range []*nsysx.Table{cp, ms} {
		v, _ := ints(t, "start")
		m.s.Start = append(m.s.Start, v...)
		v, _ = ints(t, "end")
		m.s.End = append(m.s.End, v...)
		v, _ = ints(t, "bytes")
		m.bytes = append(m.bytes, v...)
		v, _ = ints(t, "deviceId")
		m.deviceID = append(m.deviceID, v...)
	}
	kind, kindValid := ints(cp, "copyKind")
	for i, k := range kind {
		s, ok := kinds[k]
		m.name = append(m.name, s)
		m.nameValid = append(m.nameValid, ok && kindValid.Valid(i))
	}
	for i := 0; i < rows(ms); i++ {
		m.name = append(m.name, MemsetName)
		m.nameValid = append(m.nameValid, true)
	}
	if allTrue(m.nameValid) {
		m.nameValid = nil
	}
	return m, nil
}

// copyKindNames maps ENUM_CUDA_MEMCPY_OPER ids to their names; a missing
// table maps nothing.
func copyKindNames(ctx context.Context, p *nsysx.Profile) (map[int64]string, error) {
	t, err := loadTable(ctx, p, "ENUM_CUDA_MEMCPY_OPER", []string{"id", "name"}, nil)
	if err != nil {
		return nil, err
	}
	ids, _ := ints(t, "id")
	names, valid := textCol(t, "name")
	out := map[int64]string{}
	for i, id := range ids {
		if _, dup := out[id]; !dup && valid.Valid(i) {
			out[id] = names[i]
		}
	}
	return out, nil
}

// memStats describes vals by name and by (name, device) over rows.
func (m *memOps) stats(rows []int, vals *Column) *Part {
	name := nameCol("Name", m.name, m.nameValid, rows)
	dev := NewInts("Device ID", Uint32, pick(m.deviceID, rows), nil)
	return StatsPart(Describe([]*Column{name}, vals), Describe([]*Column{name, dev}, vals))
}
