package pyframe

// pySet emulates the slot layout of a CPython (3.11+) set of non-negative
// integers, whose hash is the integer itself, so that its iteration order
// can be reproduced: mpi_gpu_time_util_map walks its PIDs in the order of
// the set `set(kernel pids) | set(MPI pids)` (docs/recipes.md §2.25). The
// rules followed: an empty set has 8 slots; a key probes slot hash&mask,
// then up to 9 following slots (linear probes, when they fit before the end
// of the table), then jumps to (i·5 + 1 + perturb)&mask with perturb
// shifted right by 5 each round; after an insertion that brings fill·5 to at
// least mask·3 the table is rebuilt for used·4 keys (used·2 past 50 000),
// reinserting in slot order. Keys are never deleted here, so there are no
// dummy slots.
type pySet struct {
	slots []int64
	full  []bool
	used  int
}

const (
	pyLinearProbes = 9
	pyPerturbShift = 5
	pyMinSize      = 8
)

func newPySet() *pySet {
	return &pySet{slots: make([]int64, pyMinSize), full: make([]bool, pyMinSize)}
}

// add inserts k (set.add / iteration over a non-set iterable).
func (s *pySet) add(k int64) {
	if s.has(k) {
		return
	}
	s.insertClean(k)
	s.used++
	mask := len(s.slots) - 1
	if s.used*5 >= mask*3 {
		n := s.used * 4
		if s.used > 50000 {
			n = s.used * 2
		}
		s.resize(n)
	}
}

func (s *pySet) has(k int64) bool {
	found := false
	s.probe(k, func(i int) bool {
		if !s.full[i] {
			return true
		}
		if s.slots[i] == k {
			found = true
			return true
		}
		return false
	})
	return found
}

// probe visits slots in CPython's order until visit returns true.
func (s *pySet) probe(k int64, visit func(i int) bool) {
	mask := uint64(len(s.slots) - 1)
	perturb := uint64(k)
	i := uint64(k) & mask
	for {
		probes := 0
		if i+pyLinearProbes <= mask {
			probes = pyLinearProbes
		}
		for j := uint64(0); j <= uint64(probes); j++ {
			if visit(int(i + j)) {
				return
			}
		}
		perturb >>= pyPerturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// insertClean puts k into the first free slot of its probe sequence.
func (s *pySet) insertClean(k int64) {
	s.probe(k, func(i int) bool {
		if s.full[i] {
			return false
		}
		s.slots[i], s.full[i] = k, true
		return true
	})
}

// resize rebuilds the table with the smallest power of two above minUsed
// slots (at least 8), reinserting the keys in slot order.
func (s *pySet) resize(minUsed int) {
	size := pyMinSize
	for size <= minUsed {
		size <<= 1
	}
	old := s.order()
	s.slots, s.full = make([]int64, size), make([]bool, size)
	for _, k := range old {
		s.insertClean(k)
	}
}

// order is the iteration order: the keys in slot order.
func (s *pySet) order() []int64 {
	var out []int64
	for i, f := range s.full {
		if f {
			out = append(out, s.slots[i])
		}
	}
	return out
}

// copySet is set(t) for a set t (set.copy): one rebuild for t's size when
// it is large, then the slots copied or reinserted in t's slot order.
func copySet(t *pySet) *pySet {
	s := newPySet()
	s.merge(t)
	return s
}

// merge is s |= t for a set t (CPython's set_merge).
func (s *pySet) merge(t *pySet) {
	if t.used == 0 {
		return
	}
	mask := len(s.slots) - 1
	if (s.used+t.used)*5 >= mask*3 {
		s.resize((s.used + t.used) * 2)
	}
	if s.used == 0 && len(s.slots) == len(t.slots) {
		copy(s.slots, t.slots)
		copy(s.full, t.full)
		s.used = t.used
		return
	}
	if s.used == 0 {
		for _, k := range t.order() {
			s.insertClean(k)
		}
		s.used = t.used
		return
	}
	for _, k := range t.order() {
		s.add(k)
	}
}

// PyUnionOrder is the iteration order of set(a) | set(b), where a and b are
// iterated in the given order (groupby keys: ascending).
func PyUnionOrder(a, b []int64) []int64 {
	sa, sb := newPySet(), newPySet()
	for _, k := range a {
		sa.add(k)
	}
	for _, k := range b {
		sb.add(k)
	}
	u := copySet(sa)
	u.merge(sb)
	return u.order()
}
