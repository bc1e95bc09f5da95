package plots

import (
	"strings"

	"github.com/nsysx/nsysx/internal/shortname"
)

// maxLabel is the longest axis label, in runes.
const maxLabel = shortname.MaxLabel

// ShortName shortens a demangled C++ function name for a label: the
// return type, template arguments and parameter list are dropped
// ("void at::native::vectorized_elementwise_kernel<4, ...>(int, T2, T3)"
// gives "at::native::vectorized_elementwise_kernel"), anonymous namespaces
// are dropped, and a name still longer than a label keeps its last scopes.
// Names that are not C++ (cuBLAS's sm80_xmma_gemm_..., NVTX ranges) only
// get truncated. (The code is internal/shortname's, shared with the
// console summaries of nsysx/compare.)
func ShortName(s string) string { return shortname.Short(s) }

// labelNames makes display labels for full names: ShortName, and where
// two names shorten alike, a distinguishing identifier from their template
// arguments, else a number (shortname.Labels).
func labelNames(full []string) []string { return shortname.Labels(full) }

// rangeLabel cleans an NVTX range name for display: nsys prints ranges of
// the default domain as ":name"; the colon is dropped, and so are the
// ", seq = N" and ", op_id = N" parts of PyTorch's autograd ranges.
func rangeLabel(s string) string {
	s = strings.TrimPrefix(s, ":")
	for _, k := range []string{", op_id = ", ", seq = ", ", sizes = "} {
		if i := strings.Index(s, k); i > 0 {
			s = s[:i]
		}
	}
	return truncate(s, maxLabel)
}
