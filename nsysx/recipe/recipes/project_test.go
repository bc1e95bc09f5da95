package recipes

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestProjectHandMade checks P on a small case worked out by hand: one
// thread, "outer" [0,100] holding "a" [10,40] and "b" [50,90]; kernels
// launched in a on stream 7 and in b on stream 8, and one launched in
// outer itself on stream 7.
func TestProjectHandMade(t *testing.T) {
	n := &ProjNVTX{
		Start:     []int64{0, 10, 50, 200},
		End:       []int64{100, 40, 90, 300},
		GlobalTid: []int64{1<<24 | 5, 1<<24 | 5, 1<<24 | 5, 1<<24 | 5},
		Keep:      []bool{true, true, true, true},
	}
	c := &ProjCUDA{
		Start:     []int64{12, 20, 55, 95},
		End:       []int64{15, 25, 60, 99},
		GPUStart:  []int64{1000, 1100, 1300, 1500},
		GPUEnd:    []int64{1050, 1200, 1400, 1600},
		GlobalTid: []int64{1<<24 | 5, 1<<24 | 5, 1<<24 | 5, 1<<24 | 5},
		Stream:    []int64{7, 7, 8, 7},
	}
	p := Project(n, c, true)
	want := &Projection{
		Start:     []int64{1000, 1000, 1300},
		End:       []int64{1600, 1200, 1400},
		NVTXRow:   []int{0, 1, 2},
		GlobalTid: []int64{1<<24 | 5, 1<<24 | 5, 1<<24 | 5},
		Keys:      [][]int64{},
		RangeID:   []int64{0, 1, 2},
		Level:     []int64{0, 1, 1},
		Children:  []int64{2, 0, 0},
		Parent:    []int64{0, 0, 0}, ParentValid: []bool{false, true, true},
		Stack: [][]int64{{0}, {0, 1}, {0, 2}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got  %+v\nwant %+v", p, want)
	}
	// Per stream, outer splits in two: stream 7 (kernels 0, 1, 3) and
	// stream 8 (kernel 2), each group numbered on from the last.
	c.Keys = [][]int64{c.Stream}
	p = Project(n, c, true)
	want = &Projection{
		Start:     []int64{1000, 1000, 1300, 1300},
		End:       []int64{1600, 1200, 1400, 1400},
		NVTXRow:   []int{0, 1, 0, 2},
		GlobalTid: []int64{1<<24 | 5, 1<<24 | 5, 1<<24 | 5, 1<<24 | 5},
		Keys:      [][]int64{{7, 7, 8, 8}},
		RangeID:   []int64{0, 1, 2, 3},
		Level:     []int64{0, 1, 0, 1},
		Children:  []int64{1, 0, 1, 0},
		Parent:    []int64{0, 0, 0, 2}, ParentValid: []bool{false, true, false, true},
		Stack: [][]int64{{0}, {0, 1}, {2}, {2, 3}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("per stream: got  %+v\nwant %+v", p, want)
	}
}

// TestProjectRandom compares Project with a brute-force version of the
// definitions on random ranges, calls, streams, devices and graph rows.
func TestProjectRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		n, c := randomProjInput(rng, iter%3)
		hier := iter%2 == 0
		got := Project(n, c, hier)
		want := bruteProject(n, c, hier)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("iter %d: got\n%+v\nwant\n%+v", iter, got, want)
		}
	}
}

func randomProjInput(rng *rand.Rand, keys int) (*ProjNVTX, *ProjCUDA) {
	n := &ProjNVTX{}
	nr := 1 + rng.IntN(12)
	var starts []int64
	for range nr {
		starts = append(starts, rng.Int64N(100))
	}
	slices.Sort(starts) // table order is start order
	for _, s := range starts {
		n.Start = append(n.Start, s)
		n.End = append(n.End, s+rng.Int64N(60))
		n.GlobalTid = append(n.GlobalTid, int64(1+rng.IntN(2))<<24|int64(rng.IntN(2)))
		n.Keep = append(n.Keep, rng.IntN(8) != 0)
	}
	c := &ProjCUDA{Graph: []bool{}}
	nc := rng.IntN(25)
	dev, str := []int64{}, []int64{}
	for range nc {
		s := rng.Int64N(140)
		c.Start = append(c.Start, s)
		c.End = append(c.End, s+rng.Int64N(10))
		g := 1000 + rng.Int64N(500)
		c.GPUStart = append(c.GPUStart, g)
		c.GPUEnd = append(c.GPUEnd, g+rng.Int64N(100))
		c.GlobalTid = append(c.GlobalTid, int64(1+rng.IntN(2))<<24|int64(rng.IntN(2)))
		c.Stream = append(c.Stream, int64(rng.IntN(3)))
		dev = append(dev, int64(rng.IntN(2)))
		str = append(str, c.Stream[len(c.Stream)-1])
		c.Graph = append(c.Graph, rng.IntN(4) == 0)
	}
	switch keys {
	case 1:
		c.Keys = [][]int64{dev}
	case 2:
		c.Keys = [][]int64{dev, str}
	}
	return n, c
}

// bruteProject implements docs/recipes.md §1.10 from its definitions with quadratic loops.
func bruteProject(n *ProjNVTX, c *ProjCUDA, hier bool) *Projection {
	out := &Projection{Keys: make([][]int64, len(c.Keys))}
	tidSet := map[int64]bool{}
	for i, t := range n.GlobalTid {
		if n.Keep[i] {
			for _, u := range c.GlobalTid {
				if u == t {
					tidSet[t] = true
				}
			}
		}
	}
	var tids []int64
	for t := range tidSet {
		tids = append(tids, t)
	}
	slices.Sort(tids)
	counter := int64(0)
	for _, t := range tids {
		var nrows []int
		for i := range n.Start {
			if n.Keep[i] && n.GlobalTid[i] == t {
				nrows = append(nrows, i)
			}
		}
		inner := bruteInnermost(n, nrows)
		for _, g := range bruteGroups(c, t) {
			bruteGroup(out, n, c, nrows, inner, g, t, hier, &counter)
		}
	}
	return out
}

// bruteInnermost: r is the parent of s when, after popping, r is the top
// of the stack: the last earlier row with end ≥ end_s whose end no row in
// between exceeds.
func bruteInnermost(n *ProjNVTX, rows []int) map[int]bool {
	inner := map[int]bool{}
	for _, r := range rows {
		inner[r] = true
	}
	for si := range rows {
		for ri := si - 1; ri >= 0; ri-- {
			if onStack(rows[ri], rows[ri+1:si+1], n.End) {
				inner[rows[ri]] = false
				break
			}
		}
	}
	return inner
}

// onStack: j stays on the stack through the rows in later iff no later end
// exceeds end_j.
func onStack(j int, later []int, end []int64) bool {
	for _, k := range later {
		if end[k] > end[j] {
			return false
		}
	}
	return true
}

func bruteGroups(c *ProjCUDA, t int64) [][]int {
	var groups [][]int
	for i := range c.Start {
		if c.GlobalTid[i] != t {
			continue
		}
		placed := false
		for gi, g := range groups {
			same := true
			for _, k := range c.Keys {
				same = same && k[g[0]] == k[i]
			}
			if same {
				groups[gi] = append(groups[gi], i)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []int{i})
		}
	}
	sort.SliceStable(groups, func(a, b int) bool {
		for _, k := range c.Keys {
			if k[groups[a][0]] != k[groups[b][0]] {
				return k[groups[a][0]] < k[groups[b][0]]
			}
		}
		return false
	})
	return groups
}

type bruteRow struct {
	s, e int64
	nv   int
}

func bruteGroup(out *Projection, n *ProjNVTX, c *ProjCUDA, nrows []int, inner map[int]bool, g []int, t int64, hier bool, counter *int64) {
	var rows []bruteRow
	streams := map[int]map[int64]bool{}
	for _, r := range nrows {
		streams[r] = map[int64]bool{}
		s, e, any := int64(0), int64(0), false
		for _, ci := range g {
			if !(n.Start[r] <= c.Start[ci] && n.End[r] > c.Start[ci] && c.End[ci] <= n.End[r]) {
				continue
			}
			streams[r][c.Stream[ci]] = true
			if c.Graph[ci] && inner[r] {
				rows = append(rows, bruteRow{c.GPUStart[ci], c.GPUEnd[ci], r})
				continue
			}
			if !any {
				s, e, any = c.GPUStart[ci], c.GPUEnd[ci], true
			}
			s, e = min(s, c.GPUStart[ci]), max(e, c.GPUEnd[ci])
		}
		if any {
			rows = append(rows, bruteRow{s, e, r})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].s != rows[j].s {
			return rows[i].s < rows[j].s
		}
		if rows[i].e != rows[j].e {
			return rows[i].e > rows[j].e
		}
		return rows[i].nv < rows[j].nv
	})
	base := *counter
	for i, r := range rows {
		out.Start = append(out.Start, r.s)
		out.End = append(out.End, r.e)
		out.NVTXRow = append(out.NVTXRow, r.nv)
		out.GlobalTid = append(out.GlobalTid, t)
		for k, col := range c.Keys {
			out.Keys[k] = append(out.Keys[k], col[g[0]])
		}
		if !hier {
			continue
		}
		out.RangeID = append(out.RangeID, base+int64(i))
		var cur []int64
		for j := 0; j <= i; j++ {
			ends := make([]int64, len(rows))
			for k := range rows {
				ends[k] = rows[k].e
			}
			if !onStack(j, iotaRange(j+1, i+1), ends) {
				continue
			}
			share := false
			for s := range streams[rows[j].nv] {
				share = share || streams[r.nv][s]
			}
			if share {
				cur = append(cur, base+int64(j))
			}
		}
		out.Stack = append(out.Stack, cur)
		out.Level = append(out.Level, int64(len(cur)-1))
		if len(cur) >= 2 {
			out.Parent = append(out.Parent, cur[len(cur)-2])
			out.ParentValid = append(out.ParentValid, true)
		} else {
			out.Parent = append(out.Parent, 0)
			out.ParentValid = append(out.ParentValid, false)
		}
	}
	if hier {
		off := len(out.RangeID) - len(rows)
		for i := range rows {
			cnt := int64(0)
			for j := range rows {
				if out.ParentValid[off+j] && out.Parent[off+j] == base+int64(i) {
					cnt++
				}
			}
			out.Children = append(out.Children, cnt)
		}
	}
	*counter += int64(len(rows))
}

func iotaRange(a, b int) []int {
	var out []int
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
}

// TestProjectRealBrute compares Project with the brute-force definitions
// on the real inputs of small profiles, without and with grouping.
func TestProjectRealBrute(t *testing.T) {
	for _, prof := range []string{"sync", "rank0"} {
		p := openProfile(t, prof)
		nv, err := composite.LoadNVTX(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		comb, err := composite.LoadCombined(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := combinedCUDA(comb)
		for _, keys := range [][][]int64{nil, {c.Device}, {c.Device, c.Stream}} {
			pc := projCUDA(c, pyframe.Seq(comb.Len()), keys)
			pc.Graph = make([]bool, comb.Len())
			got := Project(projNVTX(nv, nil), pc, true)
			want := bruteProject(projNVTX(nv, nil), pc, true)
			if !reflect.DeepEqual(got, want) || got.Len() == 0 {
				t.Fatalf("%s, %d keys: Project differs from the brute force (%d rows, want %d)", prof, len(keys), got.Len(), want.Len())
			}
		}
	}
}
