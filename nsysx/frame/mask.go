package frame

// Mask marks the non-NULL rows of a composite column; a nil Mask means no
// NULLs.
type Mask []bool

// Valid reports whether row i is non-NULL.
func (m Mask) Valid(i int) bool { return m == nil || m[i] }

// Pick returns the mask restricted to rows (nil stays nil).
func (m Mask) Pick(rows []int) Mask {
	if m == nil {
		return nil
	}
	return Pick(m, rows)
}

// SetNull marks row i of an n-row mask NULL, allocating it on first use.
func SetNull(m Mask, n, i int) Mask {
	if m == nil {
		m = make(Mask, n)
		for k := range m {
			m[k] = true
		}
	}
	m[i] = false
	return m
}

// Pick returns v restricted to rows, in their order.
func Pick[T any](v []T, rows []int) []T {
	out := make([]T, len(rows))
	for k, i := range rows {
		out[k] = v[i]
	}
	return out
}

// Seq returns 0..n-1.
func Seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
