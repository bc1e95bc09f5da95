package checked

import (
	"math"
	"math/big"
	"testing"
)

// Each result is compared with big.Int arithmetic.
func TestChecked(t *testing.T) {
	vals := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 62, -5, -1, 0, 1, 5, 1 << 62, math.MaxInt64 - 1, math.MaxInt64}
	fits := func(z *big.Int) bool { return z.IsInt64() }
	for _, a := range vals {
		for _, b := range vals {
			s, ok := Add(a, b)
			z := new(big.Int).Add(big.NewInt(a), big.NewInt(b))
			if ok != fits(z) || ok && s != z.Int64() {
				t.Errorf("Add(%d, %d) = %d, %v; want %v", a, b, s, ok, z)
			}
			d, ok := Sub(a, b)
			z = new(big.Int).Sub(big.NewInt(a), big.NewInt(b))
			if ok != fits(z) || ok && d != z.Int64() {
				t.Errorf("Sub(%d, %d) = %d, %v; want %v", a, b, d, ok, z)
			}
			u, ok := AddUint(uint64(a), uint64(b))
			z = new(big.Int).Add(new(big.Int).SetUint64(uint64(a)), new(big.Int).SetUint64(uint64(b)))
			if ok != z.IsUint64() || ok && u != z.Uint64() {
				t.Errorf("AddUint(%d, %d) = %d, %v; want %v", uint64(a), uint64(b), u, ok, z)
			}
		}
	}
}
