package advise

import (
	"cmp"
	"context"

	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
)

// ErrNotOneJob is Job's error when the reports hold no NCCL collective to
// match across them: they are not the ranks of one distributed job.
var ErrNotOneJob = critpath.ErrNoCollectives

// Job is the advice for the reports of one distributed job, one per rank
// (docs/advise.md, "Several ranks of one job"). Its scope is the job's
// iterations, as the critical path across ranks (critpath.Ranks) finds
// them, and its span their step times. Its findings are:
//   - straggler: the iterations in which one rank arrived last at the
//     collectives while the others waited, at stake what the steps would
//     save were it at the median rank's pace (critpath's what-if);
//   - nccl_wait: GPU time idle in collectives waiting for other ranks in
//     the iterations with no single straggler (ranks taking turns);
//   - each category of the ranks' own advice (per, one Advice per profile,
//     in any order), its share the mean of the ranks' shares, so that a
//     problem every rank has ranks by what it costs each.
func Job(ctx context.Context, profs []*nsysx.Profile, per []*Advice, o Options) (*Advice, error) {
	r, err := critpath.Ranks(ctx, profs, critpath.RanksOptions{Iterations: o.Iterations})
	if err != nil {
		return nil, err
	}
	byFile := map[string]*Advice{}
	for _, a := range per {
		byFile[filepath.Base(a.Path)] = a
	}
	var paths []string
	for _, f := range r.Files {
		if a := byFile[f]; a != nil {
			paths = append(paths, a.Path)
		} else {
			paths = append(paths, f)
		}
	}
	job := &Advice{Source: fmt.Sprintf("job of %d ranks (%s)", len(r.Files), strings.Join(stems(r.Files), ", ")),
		Path: strings.Join(paths, " "), Device: -1}
	named := 0
	for _, it := range r.Iterations {
		job.Span += it.Observed
		if it.Name != "" {
			named++
		}
	}
	iters := named == len(r.Iterations) && named > 0
	if iters {
		job.Iterations = len(r.Iterations)
		job.Scope = fmt.Sprintf("all %d iterations of the job", job.Iterations)
	} else {
		job.Scope = "whole capture of the job"
	}
	jf := jobFindings{job: job, r: r, iters: iters}
	jf.straggler()
	jf.ncclWait()
	jf.ranks(per)
	slices.SortStableFunc(jf.out, func(a, b Finding) int { return cmp.Compare(b.AtStake, a.AtStake) })
	for i := range jf.out {
		jf.out[i].Rank = i + 1
	}
	job.Findings = jf.out
	return job, nil
}

type jobFindings struct {
	job   *Advice
	r     *critpath.RanksResult
	iters bool
	out   []Finding
}

// add appends a finding from its per-iteration amounts, as one profile's
// analysis states them (see analysis.finding).
func (j *jobFindings) add(c Category, v []int64, what, conf, evidence, fix string) {
	var at int64
	affected := 0
	for _, x := range v {
		at += x
		if x > 0 {
			affected++
		}
	}
	if at <= 0 {
		return
	}
	f := Finding{Category: c, AtStake: at, PerIter: -1, Share: share(at, j.job.Span), Confidence: conf, Evidence: evidence, Fix: fix}
	if j.iters {
		f.PerIter = median(v)
		f.Finding = fmt.Sprintf("%s: %s per iteration (%s)", what, dur(f.PerIter), j.job.Scope)
		if f.PerIter == 0 {
			f.Finding = fmt.Sprintf("%s: %s in %d of %d iterations (%s)", what, dur(at), affected, len(v), j.job.Scope)
		}
	} else {
		f.Finding = fmt.Sprintf("%s: %s (%s)", what, dur(at), j.job.Scope)
	}
	j.out = append(j.out, f)
}

// lostText is each rank's GPU time idle waiting in collectives over the
// iterations kept by keep.
func (j *jobFindings) lostText(keep func(it critpath.RankIteration) bool) string {
	lost := make([]int64, len(j.r.Files))
	for _, it := range j.r.Iterations {
		if keep(it) {
			for k, d := range it.Idle {
				lost[k] += d
			}
		}
	}
	var parts []string
	for k, d := range lost {
		parts = append(parts, fmt.Sprintf("%s %s", stems(j.r.Files)[k], dur(d)))
	}
	return strings.Join(parts, ", ")
}

func (j *jobFindings) command() string {
	return "Command: nsysx critical-path " + j.job.Path
}

func (j *jobFindings) straggler() {
	v := make([]int64, len(j.r.Iterations))
	count := map[int]int{}
	for i, it := range j.r.Iterations {
		if it.Straggler >= 0 {
			v[i] = max(it.Observed-it.Predicted, 0)
			count[it.Straggler]++
		}
	}
	if len(count) == 0 {
		return
	}
	ranks := slices.SortedFunc(maps.Keys(count), func(a, b int) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	k := ranks[0]
	name := stems(j.r.Files)[k]
	conf := "high"
	if count[k] < len(j.r.Iterations)/2 || len(ranks) > 1 {
		conf = "medium"
	}
	var who []string
	for _, r := range ranks {
		who = append(who, fmt.Sprintf("%s in %d", stems(j.r.Files)[r], count[r]))
	}
	ev := fmt.Sprintf("straggler (last to arrive at the collectives while the others waited): %s of %d iterations; the ranks' GPUs idle waiting in those iterations: %s; at stake: the step time were the straggler at the median rank's pace. %s",
		strings.Join(who, ", "), len(j.r.Iterations), j.lostText(func(it critpath.RankIteration) bool { return it.Straggler >= 0 }), j.command())
	j.add(Straggler, v, fmt.Sprintf("rank %d (%s) holds the others back: they wait for it in NCCL collectives", k, name), conf, ev, fixStraggler(name))
}

func (j *jobFindings) ncclWait() {
	v := make([]int64, len(j.r.Iterations))
	for i, it := range j.r.Iterations {
		if it.Straggler < 0 && len(it.Idle) > 0 {
			v[i] = median(it.Idle)
		}
	}
	ev := fmt.Sprintf("iterations with no single straggler; the ranks' GPUs idle waiting in their collectives: %s (the median rank counted). %s",
		j.lostText(func(it critpath.RankIteration) bool { return it.Straggler < 0 }), j.command())
	j.add(NCCLWait, v, "GPUs idle in NCCL collectives waiting for other ranks, no single rank to blame", "low", ev, fixNCCLWait)
}

// ranks adds each category of the ranks' own advice: its share is the mean
// of the ranks' shares (0 for a rank without it), its time at stake that
// share of the job's span.
func (j *jobFindings) ranks(per []*Advice) {
	if len(per) == 0 {
		return
	}
	type agg struct {
		share    float64
		worst    *Finding
		worstSrc string
		shares   []string
	}
	cats := map[Category]*agg{}
	var order []Category
	for _, a := range per {
		for i := range a.Findings {
			f := &a.Findings[i]
			if f.Share < 0 || f.Category == Untraced {
				continue
			}
			g := cats[f.Category]
			if g == nil {
				g = &agg{}
				cats[f.Category] = g
				order = append(order, f.Category)
			}
			g.share += f.Share / float64(len(per))
			g.shares = append(g.shares, fmt.Sprintf("%s %.1f%%", a.Source, f.Share))
			if g.worst == nil || f.Share > g.worst.Share {
				g.worst, g.worstSrc = f, a.Source
			}
		}
	}
	for _, c := range order {
		g := cats[c]
		at := int64(g.share / 100 * float64(j.job.Span))
		if at <= 0 {
			continue
		}
		f := Finding{Category: c, AtStake: at, PerIter: -1, Share: g.share, Confidence: g.worst.Confidence, Fix: g.worst.Fix}
		if j.iters {
			f.PerIter = at / int64(len(j.r.Iterations))
		}
		f.Finding = fmt.Sprintf("%s, mean over the %d ranks (%s); most on %s", what(g.worst.Finding), len(per), j.job.Scope, g.worstSrc)
		f.Evidence = fmt.Sprintf("share of each rank's span: %s. The ranks' own findings: nsysx advise %s", strings.Join(g.shares, ", "), j.job.Path)
		j.out = append(j.out, f)
	}
}

// what is a finding's text without its amount and scope: up to the last
// ": " that an amount follows ("GPU idle between many short kernels:
// launch overhead: 355 µs per iteration (...)").
func what(finding string) string {
	for i := len(finding) - 3; i > 0; i-- {
		if finding[i] == ':' && finding[i+1] == ' ' && finding[i+2] >= '0' && finding[i+2] <= '9' {
			return finding[:i]
		}
	}
	return finding
}

func stems(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		f = strings.TrimSuffix(strings.TrimSuffix(f, ".gz"), ".zst")
		out[i] = strings.TrimSuffix(f, filepath.Ext(f))
	}
	return out
}

func fixStraggler(rank string) string {
	return "find what " + rank + " does before the collectives that the other ranks do not: its own first finding (nsysx advise on its report: data loading, host work, a slower copy), uneven inputs (sequence lengths, batch sizes: bucket or pad them), or a slower host or GPU (clocks, another job on it); balance the work, or overlap it with communication"
}

const fixNCCLWait = "the ranks take turns arriving last: even out their work per step (the same batch shapes, the same data pipeline on every rank), and let communication overlap compute (DDP's bucket_cap_mb, FSDP's prefetch); NCCL_DEBUG=INFO shows the collectives' algorithm and transport"
