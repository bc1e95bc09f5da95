package events

import "github.com/nsysx/nsysx/nsysx/model"

// KernelNaming is how kernels are named: nsys's reports show the demangled
// name by default, the short (base) name under `base` and the mangled one
// under `mangled` (docs/stats.md §2.8).
type KernelNaming uint8

// The namings.
const (
	NameDemangled KernelNaming = iota
	NameBase
	NameMangled
)

// KernelNameColumns are the kernel table's columns that name a kernel as n
// says: the column n picks, then demangledName (its fallback, for a NULL
// name) when that is another. A profile without mangled names names its
// kernels demangled under NameMangled.
func KernelNameColumns(p *model.Profile, n KernelNaming) []string {
	col := "demangledName"
	switch {
	case n == NameBase:
		col = "shortName"
	case n == NameMangled && p.HasColumn(TableKernel, "mangledName"):
		col = "mangledName"
	}
	if col == "demangledName" {
		return []string{col}
	}
	return []string{col, "demangledName"}
}

// KernelNameCols are the name columns of t (loaded with at least
// KernelNameColumns' columns) in that order.
type KernelNameCols struct{ name, fallback *model.Column }

// KernelNameColsOf finds the columns cols (KernelNameColumns') in t.
func KernelNameColsOf(t *model.Table, cols []string) KernelNameCols {
	return KernelNameCols{t.Col(cols[0]), t.Col("demangledName")}
}

// ID is the StringIds id naming row i: the picked column's, else the
// fallback's; ok is false when both are NULL.
func (k KernelNameCols) ID(i int) (id int64, ok bool) {
	src := k.name
	if src.IsNull(i) {
		src = k.fallback
	}
	if src.IsNull(i) {
		return 0, false
	}
	return src.Ints[i], true
}
