package stats

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
)

const (
	tUMCPU = events.TableCUDAUMCPUPageFaultEvents
	tUMGPU = events.TableCUDAUMGPUPageFaultEvents
	// copyKind of unified-memory migrations (ENUM_CUDA_MEMCPY_OPER)
	umHtoD = 11
	umDtoH = 12
)

func init() {
	register(&Report{Name: "um_sum", Title: "Unified Memory Analysis Summary", Aliases: []string{"unifiedmemory"},
		Help: "Unified-memory activity per virtual address: host-to-device and device-to-host migration sizes, CPU and GPU " +
			"page faults, and migration throughput; the addresses with the highest throughput first.",
		Options: []Option{{Name: "rows", Default: "10", Help: "maximum number of rows (-1: all)"}},
		Run:     runUMSum})
	register(&Report{Name: "um_total_sum", Title: "Unified Memory Totals Summary", Aliases: []string{"unifiedmemorytotals"},
		Help: "Unified-memory totals in one row: migrated bytes each way, CPU and GPU page faults, lowest and highest address.",
		Run:  runUMTotalSum})
	register(&Report{Name: "um_cpu_page_faults_sum", Title: "Unified Memory CPU Page Faults Summary", Aliases: []string{"umcpupagefaults"},
		Help: "Unified-memory CPU page faults grouped by the faulting function and, when captured, source file and line.",
		Run:  runUMCPUFaultsSum})
}

// umPrereq checks the three tables um_sum and um_total_sum need, in nsys's
// order, then applies the filter.
func umPrereq(c *Ctx) (*Result, error) {
	for _, m := range [][2]string{
		{tMemcpy, " does not contain CUDA memory transfers data."},
		{tUMCPU, " does not contain CUDA Unified Memory CPU page faults data."},
		{tUMGPU, " does not contain CUDA Unified Memory GPU page faults data."},
	} {
		if !c.Has(m[0]) {
			return c.Skip(c.Path() + m[1])
		}
	}
	return c.SetupFilter()
}

// isum is SQLite's sum() of integers: NULL until a value is added.
type isum struct {
	v   int64
	has bool
}

func (s *isum) add(c *Column, i int) {
	if !c.IsNull(i) {
		s.v += c.Int(i)
		s.has = true
	}
}

func (s isum) value() Value {
	if !s.has {
		return Null
	}
	return IntV(s.v)
}

func (s isum) or0() int64 { return s.v }

// addrKey is a grouping address; NULL addresses group together but never
// join.
type addrKey struct {
	a    int64
	null bool
}

func addrLess(x, y addrKey) bool {
	if x.null != y.null {
		return x.null
	}
	return x.a < y.a
}

func sortedAddrs[T any](m map[addrKey]T) []addrKey {
	out := make([]addrKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return addrLess(out[i], out[j]) })
	return out
}

func addrOf(c *Column, i int) addrKey {
	if c.IsNull(i) {
		return addrKey{null: true}
	}
	return addrKey{a: c.Int(i)}
}

type migration struct{ bytes, dur isum }

// migrations sums the unified-memory copies of one direction per address.
func migrations(c *Ctx, kind int64) (map[addrKey]*migration, error) {
	t, err := memcpys(c).Load("start", "end", "bytes", "copyKind", "virtualAddress")
	if err != nil {
		return nil, err
	}
	ck, va, b := t.Col("copyKind"), t.Col("virtualAddress"), t.Col("bytes")
	st, en := t.Col("start"), t.Col("end")
	out := map[addrKey]*migration{}
	for i := 0; i < t.N; i++ {
		if ck.IsNull(i) || ck.Int(i) != kind {
			continue
		}
		k := addrOf(va, i)
		m := out[k]
		if m == nil {
			m = &migration{}
			out[k] = m
		}
		m.bytes.add(b, i)
		if d, ok := dur(st, en, i); ok {
			m.dur.v += d
			m.dur.has = true
		}
	}
	return out, nil
}

// umRow is one um_sum row.
type umRow struct {
	addr           addrKey
	cpu, gpu       Value
	h2d, d2h, tput Value
}

func runUMSum(c *Ctx) (*Result, error) {
	if r, err := umPrereq(c); r != nil || err != nil {
		return r, err
	}
	rows, err := umRowsOpt(c)
	if err != nil {
		return nil, err
	}
	cpu, err := umCPUFaults(c)
	if err != nil {
		return nil, err
	}
	gpu, err := umGPUFaults(c)
	if err != nil {
		return nil, err
	}
	d2h, err := migrations(c, umDtoH)
	if err != nil {
		return nil, err
	}
	h2d, err := migrations(c, umHtoD)
	if err != nil {
		return nil, err
	}
	out := joinUMRows(umFaultRows(cpu, gpu), umMigrationRows(d2h, h2d))
	sort.SliceStable(out, func(i, j int) bool { return Compare(out[i].tput, out[j].tput) > 0 })
	if rows >= 0 && int64(len(out)) > rows {
		out = out[:rows]
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Virtual Address:addr_uint", "HtoD Migration size:mem_B",
		"DtoH Migration size:mem_B", "CPU Page Faults", " GPU Page Faults", "Migration Throughput:thru_B")
	for _, r := range out {
		a := Null
		if !r.addr.null {
			a = IntV(r.addr.a)
		}
		res.Add(a, r.h2d, r.d2h, r.cpu, r.gpu, r.tput)
	}
	return res, nil
}

// umRowsOpt is um_sum's --rows option (10 when not given; -1: all).
func umRowsOpt(c *Ctx) (int64, error) {
	v, ok := c.Opt("rows")
	if !ok {
		return 10, nil
	}
	n, ok := ParsePyInt(v)
	if !ok {
		return 0, fmt.Errorf("%w: argument --rows: invalid int value: '%s'", ErrBadOption, v)
	}
	return n, nil
}

// umCPUFaults counts the CPU page-fault events per address.
func umCPUFaults(c *Ctx) (map[addrKey]int64, error) {
	ct, err := c.View(tUMCPU).Load("address")
	if err != nil {
		return nil, err
	}
	cpu := map[addrKey]int64{}
	for i := 0; i < ct.N; i++ {
		cpu[addrOf(ct.Col("address"), i)]++
	}
	return cpu, nil
}

// umGPUFaults sums numberOfPageFaults of the GPU page-fault events per address.
func umGPUFaults(c *Ctx) (map[addrKey]*isum, error) {
	gt, err := c.View(tUMGPU).Load("address", "numberOfPageFaults")
	if err != nil {
		return nil, err
	}
	gpu := map[addrKey]*isum{}
	for i := 0; i < gt.N; i++ {
		k := addrOf(gt.Col("address"), i)
		if gpu[k] == nil {
			gpu[k] = &isum{}
		}
		gpu[k].add(gt.Col("numberOfPageFaults"), i)
	}
	return gpu, nil
}

// umFaultRows lists the page-fault rows: CPU addresses (with their GPU
// faults), then GPU-only addresses.
func umFaultRows(cpu map[addrKey]int64, gpu map[addrKey]*isum) []umRow {
	var faults []umRow
	for _, a := range sortedAddrs(cpu) {
		r := umRow{addr: a, cpu: IntV(cpu[a]), gpu: Null}
		if g := gpu[a]; g != nil && !a.null {
			r.gpu = g.value()
		}
		faults = append(faults, r)
	}
	for _, a := range sortedAddrs(gpu) {
		if _, both := cpu[a]; both && !a.null {
			continue
		}
		faults = append(faults, umRow{addr: a, cpu: Null, gpu: gpu[a].value()})
	}
	return faults
}

// umMigrationRows lists the migration rows: device-to-host addresses (with
// their host-to-device copies), then host-to-device-only addresses.
func umMigrationRows(d2h, h2d map[addrKey]*migration) []umRow {
	var migs []umRow
	for _, a := range sortedAddrs(d2h) {
		var h *migration
		if !a.null {
			h = h2d[a]
		}
		migs = append(migs, umMigrationRow(a, d2h[a], h))
	}
	for _, a := range sortedAddrs(h2d) {
		if _, both := d2h[a]; both && !a.null {
			continue
		}
		migs = append(migs, umMigrationRow(a, nil, h2d[a]))
	}
	return migs
}

// umMigrationRow is one address's migration sizes and throughput; d or h is
// nil when the address has no copies that way.
func umMigrationRow(a addrKey, d, h *migration) umRow {
	r := umRow{addr: a, h2d: Null, d2h: Null, tput: Null}
	var bytes, dt int64
	if d != nil {
		r.d2h, bytes, dt = d.bytes.value(), d.bytes.or0(), d.dur.or0()
	}
	if h != nil {
		r.h2d = h.bytes.value()
		bytes += h.bytes.or0()
		dt += h.dur.or0()
	}
	if dt != 0 {
		r.tput = sqlMul(bytes, 1000000000/dt)
	}
	return r
}

// joinUMRows left-joins the fault rows with the migration rows on address,
// then appends the migration rows that joined no fault row (NULL addresses
// never join).
func joinUMRows(faults, migs []umRow) []umRow {
	byAddr := map[int64]*umRow{}
	for i := range migs {
		if !migs[i].addr.null {
			byAddr[migs[i].addr.a] = &migs[i]
		}
	}
	var out []umRow
	joined := map[int64]bool{}
	for _, f := range faults {
		r := umRow{addr: f.addr, cpu: f.cpu, gpu: f.gpu, h2d: Null, d2h: Null, tput: Null}
		if m := byAddr[f.addr.a]; m != nil && !f.addr.null {
			r.h2d, r.d2h, r.tput = m.h2d, m.d2h, m.tput
			joined[f.addr.a] = true
		}
		out = append(out, r)
	}
	for _, m := range migs {
		if m.addr.null || !joined[m.addr.a] {
			m.cpu, m.gpu = Null, Null
			out = append(out, m)
		}
	}
	return out
}

// sqlMul multiplies integers as SQLite does: a real on overflow.
func sqlMul(a, b int64) Value {
	hi, lo := bits.Mul64(uint64(absInt(a)), uint64(absInt(b)))
	if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
		return FloatV(float64(a) * float64(b))
	}
	return IntV(a * b)
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// addrRange is min() and max() of addresses, NULL when there are none.
type addrRange struct {
	lo, hi int64
	has    bool
}

func (r *addrRange) add(c *Column, i int) {
	if c.IsNull(i) {
		return
	}
	v := c.Int(i)
	if !r.has || v < r.lo {
		r.lo = v
	}
	if !r.has || v > r.hi {
		r.hi = v
	}
	r.has = true
}

func runUMTotalSum(c *Ctx) (*Result, error) {
	if r, err := umPrereq(c); r != nil || err != nil {
		return r, err
	}
	var ranges [4]addrRange // cpu, gpu, h2d, d2h
	ct, err := c.View(tUMCPU).Load("address")
	if err != nil {
		return nil, err
	}
	for i := 0; i < ct.N; i++ {
		ranges[0].add(ct.Col("address"), i)
	}
	gt, err := c.View(tUMGPU).Load("address", "numberOfPageFaults")
	if err != nil {
		return nil, err
	}
	var gpuFaults isum
	for i := 0; i < gt.N; i++ {
		ranges[1].add(gt.Col("address"), i)
		gpuFaults.add(gt.Col("numberOfPageFaults"), i)
	}
	mt, err := memcpys(c).Load("bytes", "copyKind", "virtualAddress")
	if err != nil {
		return nil, err
	}
	var h2d, d2h isum
	for i := 0; i < mt.N; i++ {
		ck := mt.Col("copyKind")
		switch {
		case ck.IsNull(i):
		case ck.Int(i) == umHtoD:
			ranges[2].add(mt.Col("virtualAddress"), i)
			h2d.add(mt.Col("bytes"), i)
		case ck.Int(i) == umDtoH:
			ranges[3].add(mt.Col("virtualAddress"), i)
			d2h.add(mt.Col("bytes"), i)
		}
	}
	lo, hi := Null, Null
	if ranges[0].has && ranges[1].has && ranges[2].has && ranges[3].has {
		l, h := ranges[0].lo, ranges[0].hi
		for _, r := range ranges[1:] {
			l, h = min(l, r.lo), max(h, r.hi)
		}
		lo, hi = IntV(l), IntV(h)
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Total HtoD Migration Size:mem_B", "Total DtoH Migration Size:mem_B",
		"Total CPU Page Faults", "Total GPU PageFaults", "Minimum Virtual Address:addr_uint", "Maximum Virtual Address:addr_uint")
	res.Add(h2d.value(), d2h.value(), IntV(int64(ct.N)), gpuFaults.value(), lo, hi)
	return res, nil
}

func runUMCPUFaultsSum(c *Ctx) (*Result, error) {
	if r, err := prologueNeeding(c, tUMCPU, " does not contain CUDA Unified Memory CPU page faults data."); r != nil || err != nil {
		return r, err
	}
	// Exports older than schema 3.16.1 lack the source columns: the load
	// below then reports the missing column as a SKIPPED line (nsys fails
	// with an internal SQL error).
	t, err := c.View(tUMCPU).Load("CpuInstruction", "SourceFile", "SourceLine")
	if err != nil {
		return nil, err
	}
	type key [3]Value
	counts := map[key]int64{}
	var keys []key
	ins, file, line := t.Col("CpuInstruction"), t.Col("SourceFile"), t.Col("SourceLine")
	for i := 0; i < t.N; i++ {
		k := key{nv(ins, i), nv(file, i), nv(line, i)}
		if _, ok := counts[k]; !ok {
			keys = append(keys, k)
		}
		counts[k]++
	}
	sort.Slice(keys, func(i, j int) bool {
		for x := range 3 {
			if cmp := Compare(keys[i][x], keys[j][x]); cmp != 0 {
				return cmp < 0
			}
		}
		return false
	})
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	str := func(v Value) Value {
		if v.Kind != IntKind {
			return Null
		}
		if s, ok := c.String(v.I); ok {
			return TextV(s)
		}
		return Null
	}
	res := NewResult(c.Report.Name, c.Report.Title, "CPU Page Faults", "CPU Instruction Address", "Source File", "Source Line")
	for _, k := range keys {
		res.Add(IntV(counts[k]), str(k[0]), str(k[1]), k[2])
	}
	return res, nil
}
