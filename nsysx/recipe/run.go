package recipe

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// ErrNoData is returned by Run when no report produced data: nsys then
// prints "No output generated.", writes nothing and exits 0.
var ErrNoData = errors.New("no data: no report produced output")

// ReportError names a report that failed and why.
type ReportError struct {
	Path string
	Err  error
}

func (e *ReportError) Error() string {
	if msg := e.Err.Error(); strings.HasPrefix(msg, e.Path+": ") {
		return msg // the opener's errors name the path already
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}
func (e *ReportError) Unwrap() error { return e.Err }

// Result is a finished run: the reduced output, the stems in Rank order
// (files.parquet), and the reports that failed.
type Result struct {
	Recipe *Recipe
	Opts   *Options
	Output *Output
	Files  []string
	Failed []*ReportError
	// Start and End are when Run began and when the reduce finished: the
	// StartTime and EndTime of the .nsys-analysis file.
	Start, End time.Time
}

// Opener opens one input; the default is nsysx.Open.
type Opener func(ctx context.Context, path string) (*nsysx.Profile, error)

// DefaultOpener opens a profile with nsysx.Open.
func DefaultOpener(_ context.Context, path string) (*nsysx.Profile, error) { return nsysx.Open(path) }

// Stem is a path's basename minus its last suffix (a/rank0.nsys-rep →
// rank0), the key that decides Rank order. Export directories lose their
// _pqtdir / _arwdir suffix, so rank0_pqtdir sorts as rank0, and compressed
// exports their .sqlite.gz / .sqlite.zst.
func Stem(path string) string {
	b := filepath.Base(strings.TrimRight(path, "/"))
	for _, s := range []string{"_pqtdir", "_arwdir"} {
		if strings.HasSuffix(b, s) {
			return strings.TrimSuffix(b, s)
		}
	}
	for _, s := range []string{".sqlite.gz", ".sqlite.zst"} {
		if len(b) > len(s) && strings.HasSuffix(strings.ToLower(b), s) {
			return b[:len(b)-len(s)]
		}
	}
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// Run runs recipe r over o.Input with a bounded pool of o.Workers mappers
// (each opens, maps and closes its report, so memory is bounded by the
// reports in flight, and these by InFlightBytes), then reduces the parts in Rank order. A report that
// fails is recorded in Result.Failed and skipped; with o.Strict the run
// fails. When no report has data, Run returns ErrNoData. Run changes the
// process's collector settings only when o.TuneGC asks it to.
func Run(ctx context.Context, r *Recipe, o *Options, open Opener) (*Result, error) {
	start := time.Now()
	if r.Whole != nil {
		out, err := r.Whole(ctx, o)
		if err != nil {
			return nil, err
		}
		return &Result{Recipe: r, Opts: o, Output: out, Start: start, End: time.Now()}, nil
	}
	if open == nil {
		open = DefaultOpener
	}
	reps := NewReports(o, open)
	shared, err := PrepareReports(ctx, r, o, reps)
	if err != nil {
		return nil, err
	}
	var gc *gcLimit // nil: the process's collector is left alone
	if o.TuneGC {
		gc = startGCLimit()
		defer gc.stop()
		defer startGCPercent()()
	}
	spills := &spillSet{}
	parts, failed := mapAll(ctx, r, o, reps, open, shared, gc, spills)
	if err := ctx.Err(); err != nil {
		spills.close()
		return nil, err
	}
	res, err := Finish(ctx, r, o, parts, failed, shared, start)
	if err != nil { // else the output's streamed tables read them (Result.Close)
		spills.close()
	}
	return res, err
}

// Close releases the output's temporary files (Options.SpillParts), once
// it is written; see Output.Close.
func (r *Result) Close() error {
	if r == nil {
		return nil
	}
	return r.Output.Close()
}

// NewReports makes the Report of each of o.Input, in input order, opened
// with open (DefaultOpener when nil) by Report.OpenProfile.
func NewReports(o *Options, open Opener) []*Report {
	if open == nil {
		open = DefaultOpener
	}
	reps := make([]*Report, len(o.Input))
	for i, p := range o.Input {
		reps[i] = &Report{Path: p, Stem: Stem(p), Pos: i, open: open}
	}
	return reps
}

// PrepareReports runs the recipe's Prepare, when it has one, over every
// report: the shared data handed to MapReport and Finish (nil otherwise).
// Prepare may also fill in o (recorded option defaults).
func PrepareReports(ctx context.Context, r *Recipe, o *Options, reps []*Report) (any, error) {
	if r.Prepare == nil {
		return nil, nil
	}
	return r.Prepare(ctx, reps, o)
}

// Finish is Run's last step, for any runner that mapped the reports itself
// (MapReport): with o.Strict a failed report fails the run; reports without
// data are dropped; the parts are sorted by stem (Rank order) and reduced.
// parts may hold nils and be in any order; start is the run's StartTime.
func Finish(ctx context.Context, r *Recipe, o *Options, parts []*Part, failed []*ReportError, shared any, start time.Time) (*Result, error) {
	res := &Result{Recipe: r, Opts: o, Failed: failed, Start: start}
	if o.Strict && len(failed) > 0 {
		return res, failed[0]
	}
	var kept []*Part
	for _, p := range parts {
		if p != nil {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return res, ErrNoData
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Stem < kept[j].Stem })
	for _, p := range kept {
		res.Files = append(res.Files, p.Stem)
	}
	mark("reduce")
	out, err := reduce(ctx, r, kept, o, shared)
	if err != nil {
		return res, err
	}
	mark("reduced")
	res.Output, res.End = out, time.Now()
	return res, nil
}

// reduce is r's Reduce, a sum past 64 bits (overflow.go) returned as its
// error.
func reduce(ctx context.Context, r *Recipe, parts []*Part, o *Options, shared any) (out *Output, err error) {
	defer func() {
		if x := recover(); x != nil {
			oe, ok := overflowErr(r, x)
			if !ok {
				panic(x)
			}
			out, err = nil, oe
		}
	}()
	return r.Reduce(ctx, parts, o, shared)
}

// PoolSize is the pool's size: --workers, else the CPUs; one under
// --mode none.
func (o *Options) PoolSize() int {
	switch {
	case o.Mode == "none":
		return 1
	case o.Workers > 0:
		return o.Workers
	}
	return runtime.NumCPU()
}

// mapAll maps every report with a bounded pool; results keep input order.
// With o.SpillParts, the parts of a recipe with SpillStats are spilled
// into spills as they finish, when there are more reports than workers.
func mapAll(ctx context.Context, r *Recipe, o *Options, reps []*Report, open Opener, shared any, gc *gcLimit, spills *spillSet) ([]*Part, []*ReportError) {
	workers := o.PoolSize()
	parts := make([]*Part, len(reps))
	errs := make([]*ReportError, len(reps))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	mem := newBudget(InFlightBytes)
	sizes, costs := make([]int64, len(reps)), make([]int64, len(reps))
	for i, rep := range reps {
		sizes[i] = reportSize(rep.Path)
		costs[i] = mapCost(r, o, sizes[i])
	}
	// The maps that run at once: the workers, fewer when the in-flight
	// budget admits fewer of the largest map (docs/recipes.md §1.3).
	inFlight := min(workers, len(reps), mapsAdmitted(InFlightBytes, costs))
	// No more reports than maps in flight: the parts held are those of the
	// maps in flight anyway, and the in-memory reduce is the faster. More,
	// and the finished parts would pile up beside the maps still running.
	spill := o.SpillParts && r.SpillStats && len(reps) > inFlight
	// Fewer maps in flight than cores: each map's loads and scans may cut a
	// big table across the cores left over (docs/recipes.md §1.3).
	mctx := nsysx.WithCores(ctx, runtime.GOMAXPROCS(0)/max(1, inFlight))
	for w := 0; w < workers && w < len(reps); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g := &grant{mem: mem, size: sizes[i], held: costs[i]}
				mem.acquire(g.held)
				rep := *reps[i]
				rep.grant = g
				p, err := MapReport(mctx, r, o, &rep, open, shared)
				if err == nil && p != nil && spill {
					if err = spillPart(o.SpillDir, p, spills); err != nil {
						p = nil
					}
				}
				mem.release(g.held)
				gc.update()
				if err != nil {
					errs[i] = &ReportError{Path: reps[i].Path, Err: err}
				}
				parts[i] = p
				mu.Lock()
				done++
				if o.Progress != nil {
					o.Progress(done, len(reps))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range reps {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var failed []*ReportError
	for _, e := range errs {
		if e != nil {
			failed = append(failed, e)
			if o.Log != nil && !o.Strict {
				o.Log(fmt.Sprintf("skipped %s", e.Error()))
			}
		}
	}
	return parts, failed
}

// MapReport is the map step of one report, as Run does it: open the report,
// read its session facts (Part.UTC, Part.Duration), run the recipe's Map and
// close the report. A nil part without error means no data; a panic in the
// recipe is returned as an error.
func MapReport(ctx context.Context, r *Recipe, o *Options, rep *Report, open Opener, shared any) (part *Part, err error) {
	if open == nil {
		open = DefaultOpener
	}
	defer func() {
		if x := recover(); x != nil {
			part, err = nil, fmt.Errorf("internal error in recipe %s: %v", r.Name, x)
			if oe, ok := overflowErr(r, x); ok {
				err = oe
			}
		}
	}()
	mark("map %s: open", rep.Stem)
	p, err := open(ctx, rep.Path)
	if err != nil {
		return nil, err
	}
	defer func() { p.Close(); mark("map %s: closed", rep.Stem) }()
	utc, dur, err := Session(ctx, p)
	if err != nil {
		return nil, err
	}
	in := *rep
	in.Profile = p
	mark("map %s: opened", rep.Stem)
	part, err = r.Map(ctx, &in, o, shared)
	mark("map %s: mapped", rep.Stem)
	var nn *NoNamesError
	if errors.As(err, &nn) { // SKIPPED, as stats' reports are: a notice, no data
		if o.Log != nil {
			o.Log(nn.Error())
		}
		return nil, nil
	}
	if err != nil || part == nil {
		return nil, err
	}
	part.Stem, part.UTC, part.Duration = rep.Stem, utc, dur
	return part, nil
}

// ErrOutdated rejects a report whose ANALYSIS_DETAILS or
// TARGET_INFO_SESSION_START_TIME is empty, as nsys's recipes do.
var ErrOutdated = errors.New("outdated report: no ANALYSIS_DETAILS or TARGET_INFO_SESSION_START_TIME; re-export it with a recent nsys")

// Session reads a report's session start (TARGET_INFO_SESSION_START_TIME
// utcEpochNs, first row) and duration (ANALYSIS_DETAILS.duration) under ctx.
func Session(ctx context.Context, p *nsysx.Profile) (utc, dur int64, err error) {
	if !p.HasTable(events.TableTargetInfoSessionStartTime) || !p.HasTable(events.TableAnalysisDetails) {
		return 0, 0, ErrOutdated
	}
	t, err := p.Load(ctx, events.TableTargetInfoSessionStartTime, "utcEpochNs")
	if err != nil {
		return 0, 0, err
	}
	d, err := p.Load(ctx, events.TableAnalysisDetails, "duration")
	if err != nil {
		return 0, 0, err
	}
	if t.N == 0 || d.N == 0 {
		return 0, 0, ErrOutdated
	}
	return t.Col("utcEpochNs").Int(0), d.Col("duration").Int(0), nil
}

// NoNamesError is a report without names to resolve (events.NamesMissing):
// MapReport skips it with the message, as stats SKIPs its reports.
type NoNamesError struct{ Msg string }

func (e *NoNamesError) Error() string { return "SKIPPED: " + e.Msg }
