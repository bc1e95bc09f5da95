package analyze

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

func init() {
	register(rule("gpu_time_util", "GPU Time Utilization", "gpu-low-util",
		"Time regions where a GPU is busy less than threshold= percent of the time (50 by default), from splitting each process/device span into chunks= equal chunks (30 by default).",
		runGPUTimeUtil,
		Option{Name: "threshold", Default: "50", Help: "report chunks whose utilization is below this percentage"},
		Option{Name: "chunks", Default: "30", Help: "number of equal-duration chunks per process and device (1..1000)"}))
}

// lowUtil is one merged run of consecutive low-utilization chunks.
type lowUtil struct {
	avg        float64 // size-weighted mean utilization, rounded to 0.1
	dur, start int64
	group      int32
	groupID    int64 // chunk index minus its rank among the kept chunks
	ops        *gpuOps
}

// runGPUTimeUtil implements docs/stats.md §5.8: each (pid, device) span is cut into
// `chunks` chunks of ceil(span/chunks) ns; chunks whose summed op overlap is
// strictly below threshold percent are kept and consecutive ones merged. The
// LIMIT applies to the merged records in (group number, device, pid) order
// before they are ranked by (In-Use, Duration), and again after.
func runGPUTimeUtil(c *Ctx) (*Result, error) {
	var threshold, chunks int64
	srcs, a, skip, err := gpuRuleSetup(c, func() (err error) {
		if threshold, err = pyIntOpt(c, "threshold", 50); err != nil {
			return err
		}
		chunks, err = pyIntOpt(c, "chunks", 30)
		return err
	})
	if skip != nil || err != nil {
		return skip, err
	}
	// nsys checks the range after its setup (and so after the filter);
	// the ranges are the recipe's too (RuleOptionRange).
	if err := checkRuleRange("chunks", chunks); err != nil {
		return nil, err
	}
	if err := checkRuleRange("threshold", threshold); err != nil {
		return nil, err
	}
	th := strconv.FormatInt(threshold, 10)
	res := newRuleResult(c, a,
		"The following are time regions with an average GPU utilization below "+th+"%%. Addressing the gaps might improve application performance."+suggestGaps,
		"There were no problems detected with GPU utilization. No time regions have an average GPU utilization below "+th+"%%.",
		"Row#", "In-Use:ratio_%", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID", "_Global ID", "_API")
	var recs []lowUtil
	for _, s := range srcs {
		o, err := loadGPUOps(c, s)
		if err != nil {
			return nil, err
		}
		recs = append(recs, o.lowUtil(int(chunks), float64(threshold), a)...)
	}
	slices.SortStableFunc(recs, func(x, y lowUtil) int {
		if r := cmp.Compare(x.avg, y.avg); r != 0 {
			return r
		}
		return cmp.Compare(x.dur, y.dur)
	})
	for i, r := range recs[:a.limit(len(recs))] {
		gr := &r.ops.groups[r.group]
		pid, dev := gr.keyValues()
		gid, ctx := r.ops.idValues(gr.rep)
		res.Add(IntV(int64(i+1)), FloatV(r.avg), IntV(r.dur), IntV(r.start), pid, dev, ctx, gid, TextV(r.ops.src.api))
	}
	return res, nil
}

// lowUtil returns the merged low-utilization records of every group, in
// (group number, device, pid) order, at most a.rows of them.
func (o *gpuOps) lowUtil(n int, threshold float64, a ruleArgs) []lowUtil {
	var out []lowUtil
	if n <= 0 {
		return nil
	}
	overlap := make([]int64, n)
	full := make([]int64, n+1)
	for gi := range o.groups {
		out = o.groupLowUtil(out, gi, n, threshold, overlap, full)
	}
	// Natural order of the GROUP BY groupId, deviceId, pid (NULL first).
	slices.SortStableFunc(out, func(x, y lowUtil) int {
		if r := cmp.Compare(x.groupID, y.groupID); r != 0 {
			return r
		}
		gx, gy := &o.groups[x.group], &o.groups[y.group]
		if r := cmpNullInt(gx.devNull, gy.devNull, gx.dev, gy.dev); r != 0 {
			return r
		}
		return cmpNullInt(gx.pidNull, gy.pidNull, gx.pid, gy.pid)
	})
	return out[:a.limit(len(out))]
}

// groupLowUtil appends to out the merged low-utilisation chunks of group gi
// cut into n chunks; overlap and full are scratch of n and n+1 entries.
func (o *gpuOps) groupLowUtil(out []lowUtil, gi, n int, threshold float64, overlap, full []int64) []lowUtil {
	gr := &o.groups[gi]
	span := gr.end0 - gr.start0
	size := int64(math.Ceil(float64(span) / float64(n)))
	if size <= 0 {
		return out
	}
	nch := 0
	for nch < n && gr.start0+int64(nch)*size < gr.end0 {
		nch++
	}
	cs := func(i int) int64 { return gr.start0 + int64(i)*size }
	ce := func(i int) int64 { return min(cs(i)+size, gr.end0) }
	clear(overlap[:nch])
	clear(full[:nch+1])
	if !gr.pidNull && !gr.devNull {
		for _, k := range o.ops(gi) {
			o.addOverlap(k, gr, size, nch, overlap, full, cs, ce)
		}
	}
	var run int64
	var cur *lowUtil
	var wsum kbnSum
	var sizes int64
	kept := 0
	for i := 0; i < nch; i++ {
		run += full[i]
		ov := overlap[i] + run*(ce(i)-cs(i))
		sz := ce(i) - cs(i)
		pct := float64(ov) / float64(sz) * 100
		if !(pct < threshold) {
			cur = nil
			continue
		}
		kept++
		if cur == nil {
			out = append(out, lowUtil{start: cs(i), group: int32(gi), groupID: int64(i - kept), ops: o})
			cur = &out[len(out)-1]
			wsum, sizes = kbnSum{}, 0
		}
		wsum.Add(float64(sz) * pct)
		sizes += sz
		cur.dur = ce(i) - cur.start
		cur.avg = Round1(wsum.Value() / float64(sizes))
	}
	return out
}

// addOverlap adds op k's overlap with the chunks: partial chunks directly,
// fully covered ones through the difference array full.
func (o *gpuOps) addOverlap(k int32, gr *opGroup, size int64, nch int, overlap, full []int64, cs, ce func(int) int64) {
	s, e := o.start[k], o.end[k]
	if s >= gr.end0 || e <= gr.start0 || s < gr.start0 {
		return // cannot satisfy op.start < chunk end and op.end > chunk start
	}
	first := int((s - gr.start0) / size)
	last := int((e-gr.start0+size-1)/size) - 1
	last = min(last, nch-1)
	if first > last {
		return
	}
	if first == last {
		overlap[first] += min(e, ce(first)) - max(s, cs(first))
		return
	}
	overlap[first] += ce(first) - s
	overlap[last] += min(e, ce(last)) - cs(last)
	full[first+1]++
	full[last]--
}
