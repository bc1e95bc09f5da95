package composite

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// MemsetName is the operation name the memory summaries give memset rows.
const MemsetName = "CUDA_MEMSET"

// CopyKindNames maps ENUM_CUDA_MEMCPY_OPER ids to their names; a missing
// table maps nothing.
func CopyKindNames(ctx context.Context, p *nsysx.Profile) (map[int64]string, error) {
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
