package beamrecipe

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/plots"
)

// The DoFns are registered in init, as Beam requires: a worker binary (a
// stripped one too) finds them by name.
func init() {
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&mapFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&reduceFn{})
	register.DoFn2x1[context.Context, []byte, error](&wholeFn{})
	register.Emitter1[[]byte]()
	register.Iter1[[]byte]()
}

// Run runs recipe r with options o (parsed with ParseArgsWith and this
// package's ExpandInputs) as a Beam pipeline on the runner named by Beam's
// --runner flag (Prism in-process when unset), and returns what the run
// wrote. workDir is where a relative or default --output is placed ("" =
// the current directory). beam.Init must have been called.
//
// The pipeline: the input list (reshuffled, so that the reports spread over
// workers rather than fusing into one bundle) → one DoFn per report that
// opens it and runs recipe.MapReport (the recipe's own Map) → every part
// gathered under one key → recipe.Finish (the recipe's own Reduce) and
// Result.Write, the same writers as the in-process runner. The recipe's
// Prepare runs here, in the launcher, before the pipeline is built.
func Run(ctx context.Context, r *recipe.Recipe, o *recipe.Options, workDir string) (*Outcome, error) {
	start := time.Now()
	if workDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		workDir = wd
	}
	cfg := &config{Recipe: r.Name, Opts: o, WorkDir: workDir, Start: start.UnixNano()}
	if r.Whole == nil {
		tmp, err := os.MkdirTemp("", "nsysx-beam-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		open := opener(o.ForceExport, tmp, workDir)
		reps := recipe.NewReports(o, open)
		for _, rep := range reps { // Prepare reads a remote export's session facts only
			rep.SessionFacts = sessionFacts(open)
		}
		if cfg.Shared, err = recipe.PrepareReports(ctx, r, o, reps); err != nil {
			return nil, err
		}
	}
	status, cleanup, err := statusPath(o.Output, workDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	cfg.Status = status
	p, err := build(cfg)
	if err != nil {
		return nil, err
	}
	if err := beamx.Run(ctx, p); err != nil {
		return nil, fmt.Errorf("beam pipeline: %w", err)
	}
	if strings.EqualFold(*runners.Runner, "dot") { // the graph is written, no stage ran
		return &Outcome{Graph: flag.Lookup("dot_file").Value.String(), Inputs: len(o.Input)}, nil
	}
	return readOutcome(ctx, status)
}

// build makes the pipeline for cfg.
func build(cfg *config) (*beam.Pipeline, error) {
	enc, err := encode(cfg)
	if err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	r, err := recipe.Lookup(cfg.Recipe)
	if err != nil {
		return nil, err
	}
	if r.Whole != nil {
		beam.ParDo0(s, &wholeFn{Config: enc}, beam.Impulse(s))
		return p, nil
	}
	inputs := make([][]byte, len(cfg.Opts.Input))
	for i, path := range cfg.Opts.Input {
		if inputs[i], err = encode(mapped{Pos: i, Path: path}); err != nil {
			return nil, err
		}
	}
	in := beam.Reshuffle(s, beam.CreateList(s, inputs))
	parts := beam.ParDo(s, &mapFn{Config: enc}, in)
	all := beam.GroupByKey(s, beam.AddFixedKey(s, parts))
	beam.ParDo0(s, &reduceFn{Config: enc}, all)
	return p, nil
}

// stage is what every DoFn decodes on the worker from its Config, the
// encoded config and the only field Beam serializes.
type stage struct {
	cfg    *config
	recipe *recipe.Recipe
}

func (st *stage) setup(enc []byte) error {
	if st.cfg != nil {
		return nil
	}
	var c config
	if err := decode(enc, &c); err != nil {
		return err
	}
	r, err := recipe.Lookup(c.Recipe)
	if err != nil {
		return err
	}
	st.cfg, st.recipe = &c, r
	return nil
}

// mapFn maps one report: it reads it (a remote one from a local copy) and
// runs the recipe's Map. A report that fails is emitted with its error, so
// that the reduce can name it, skip it, or fail the run with --strict.
type mapFn struct {
	Config []byte
	stage
}

func (f *mapFn) Setup() error { return f.setup(f.Config) }

func (f *mapFn) ProcessElement(ctx context.Context, in []byte, emit func([]byte)) error {
	if err := f.setup(f.Config); err != nil {
		return err
	}
	// the local copy of a remote report goes into a directory of this
	// element's own, removed here: Beam does not promise to call Teardown
	tmp, err := os.MkdirTemp("", "nsysx-beam-map-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var m mapped
	if err := decode(in, &m); err != nil {
		return err
	}
	o := f.cfg.Opts
	rep := &recipe.Report{Path: m.Path, Stem: recipe.Stem(m.Path), Pos: m.Pos}
	part, err := recipe.MapReport(ctx, f.recipe, o, rep, opener(o.ForceExport, tmp, f.cfg.WorkDir), f.cfg.Shared)
	if err != nil {
		m.Err = err.Error()
	}
	m.Part = toWire(part)
	out, err := encode(m)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// reduceFn gathers every mapped report and finishes the run.
type reduceFn struct {
	Config []byte
	stage
}

func (f *reduceFn) ProcessElement(ctx context.Context, _ int, values func(*[]byte) bool) error {
	if err := f.setup(f.Config); err != nil {
		return err
	}
	n := len(f.cfg.Opts.Input)
	parts := make([]*recipe.Part, n)
	errs := make([]*recipe.ReportError, n)
	var b []byte
	for values(&b) {
		var m mapped
		if err := decode(b, &m); err != nil {
			return err
		}
		if m.Pos < 0 || m.Pos >= n {
			return fmt.Errorf("mapped report %d of %d", m.Pos, n)
		}
		parts[m.Pos] = fromWire(m.Part)
		if m.Err != "" {
			errs[m.Pos] = &recipe.ReportError{Path: m.Path, Err: errors.New(m.Err)}
		}
	}
	var failed []*recipe.ReportError
	for _, e := range errs {
		if e != nil {
			failed = append(failed, e)
		}
	}
	res, err := recipe.Finish(ctx, f.recipe, f.cfg.Opts, parts, failed, f.cfg.Shared, time.Unix(0, f.cfg.Start))
	return finishRun(ctx, f.cfg, res, err)
}

// wholeFn runs a recipe that reads its inputs itself (diff).
type wholeFn struct {
	Config []byte
	stage
}

func (f *wholeFn) ProcessElement(ctx context.Context, _ []byte) error {
	if err := f.setup(f.Config); err != nil {
		return err
	}
	res, err := recipe.Run(ctx, f.recipe, f.cfg.Opts, nil)
	if res != nil {
		res.Start = time.Unix(0, f.cfg.Start)
	}
	return finishRun(ctx, f.cfg, res, err)
}

// finishRun writes the output directory when the run succeeded, and the
// outcome in every case.
func finishRun(ctx context.Context, cfg *config, res *recipe.Result, err error) error {
	out := &Outcome{Inputs: len(cfg.Opts.Input)}
	if res != nil {
		for _, e := range res.Failed {
			out.Failed = append(out.Failed, e.Error())
		}
	}
	switch {
	case errors.Is(err, recipe.ErrNoData):
		out.NoData = true
	case err != nil:
		out.Err = err.Error()
	default:
		out.Dir, err = write(ctx, cfg, res)
		if err != nil {
			out.Err, out.Refused = err.Error(), errors.Is(err, recipe.ErrOutputExists)
		}
	}
	return writeOutcome(ctx, cfg.Status, out)
}

// write writes the result with recipe's writers and, as `nsysx recipe`
// does, the charts and the notebook the .nsys-analysis names: straight into a local
// output directory, or into a local one that is then copied to a Beam
// filesystem.
func write(ctx context.Context, cfg *config, res *recipe.Result) (string, error) {
	if !IsRemote(cfg.Opts.Output) {
		return res.Write(&recipe.WriteOptions{WorkDir: cfg.WorkDir, Extra: plots.RecipeExtra(res)})
	}
	tmp, err := os.MkdirTemp("", "nsysx-beam-out-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: tmp, Extra: plots.RecipeExtra(res)})
	if err != nil {
		return "", err
	}
	if err := publishRemote(ctx, dir, cfg.Opts.Output, atomicfile.DirOptions{Force: cfg.Opts.ForceOverwrite, Inputs: cfg.Opts.Input}); err != nil {
		return "", err
	}
	return cfg.Opts.Output, nil
}

// statusPath is where the last stage records the outcome, read back by
// the launcher: beside the output, on the output's filesystem, which the
// worker that writes the output reaches (a local temporary directory of the
// launcher would be out of a remote worker's reach). A local output's
// status is a hidden file in the output's parent directory (relative to
// workDir; workDir itself for the default output name), removed at the end;
// a local temporary file when that directory does not exist.
func statusPath(output, workDir string) (string, func(), error) {
	if IsRemote(output) {
		return output + ".nsysx-beam-status.json", func() {}, nil
	}
	dir := workDir
	if output != "" {
		if !filepath.IsAbs(output) {
			output = filepath.Join(workDir, output)
		}
		dir = filepath.Dir(filepath.Clean(output))
	}
	f, err := os.CreateTemp(dir, ".nsysx-beam-status-*.json")
	if err != nil { // no such parent (yet): writing the output will say so
		tmp, err := os.MkdirTemp("", "nsysx-beam-status-")
		if err != nil {
			return "", nil, err
		}
		return filepath.Join(tmp, "status.json"), func() { os.RemoveAll(tmp) }, nil
	}
	f.Close()
	os.Remove(f.Name()) // the last stage writes it; its absence says the pipeline did not finish
	return f.Name(), func() { os.Remove(f.Name()) }, nil
}
