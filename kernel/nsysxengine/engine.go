package nsysxengine

import (
	"context"
	"fmt"
	"html"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/advise"
	"github.com/nsysx/nsysx/nsysx/compare"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// Engine is the nsysx kernel's engine: Go cells run by gointerp with the
// nsysx, nsysx/format, plots, nsysx/recipe and nsysx/nb packages compiled in and
// imported in advance, nsysx values shown as tables, and the nsysx magics
// (%nsys, %open, %%sql, %plot). Heavy work always runs compiled: cells only call
// the library.
type Engine struct {
	*gointerp.Engine
	profiles *profiles

	mu    sync.Mutex
	table TableOptions

	recipes map[string]*recipe.Result // the results %nsys recipe left in variables

	life    context.Context // cancelled by Close: the parent of the cells' contexts
	endLife context.CancelFunc
	cur     *cellCtx // the context of the cell running or last run

	ids  atomic.Int64   // display ids of progress displays
	cell atomic.Value   // the code of the cell running (string)
	bg   sync.WaitGroup // interrupted magics still running in the background
}

// Import paths of the packages imported in advance; bindName is the
// hidden name %open uses to bind profiles.
const (
	NBPath   = "nsysx/nb"
	bindName = "_nsysxbind"
)

// StdImports are the standard packages every cell can use without an
// import (the banner and the README list them).
var StdImports = []string{"fmt", "strings", "sort", "math", "time", "os", "context"}

// preImports is the import declaration run when the engine starts: the
// common standard packages, the compiled packages under their usual
// names, and nb under a hidden name for %open's bindings.
func preImports() string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range StdImports {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	for _, p := range []string{"github.com/nsysx/nsysx/nsysx", "github.com/nsysx/nsysx/nsysx/format", "github.com/nsysx/nsysx/plots",
		"github.com/nsysx/nsysx/nsysx/recipe", NBPath} {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	fmt.Fprintf(&b, "\t%s %q\n)", bindName, NBPath)
	return b.String()
}

// New returns an engine with the nsysx packages imported.
func New() (*Engine, error) {
	gi, err := gointerp.New()
	if err != nil {
		return nil, err
	}
	e := &Engine{Engine: gi, profiles: newProfiles(), table: DefaultTableOptions}
	e.life, e.endLife = context.WithCancel(context.Background())
	if err := gi.Use(loadSymbols()); err != nil {
		return nil, fmt.Errorf("nsysx symbols: %w", err)
	}
	if err := gi.Use(e.nbSymbols()); err != nil {
		return nil, fmt.Errorf("nb symbols: %w", err)
	}
	gi.AddDisplayer(e.display)
	if err := gi.Execute(context.Background(), preImports(), kernel.TextOutput{W: discard{}}); err != nil {
		return nil, fmt.Errorf("importing the nsysx packages: %w", err)
	}
	return e, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Banner implements kernel.Bannerer.
func (e *Engine) Banner() string {
	return "nsysx Go kernel: Nsight Systems profiles in Go cells (yaegi interpreter, compiled nsysx).\n" +
		"Imported in every cell: nsysx, format, plots, nb and " + strings.Join(StdImports, ", ") + ".\n" +
		"Every cell has ctx, its context.Context: p.Stats(ctx, \"cuda_gpu_kern_sum\"); interrupting the cell cancels it.\n" +
		"%help lists the magics; %open FILE opens a profile; NAME? or Shift-Tab shows the docs."
}

// closeWait bounds how long Close waits for interrupted reports.
const closeWait = 10 * time.Second

// Close implements io.Closer: it closes the profiles (the decompressed
// copies of .gz files stay in nsysx's cache for the next kernel). Profiles that an interrupted report may
// still read (it did not end within closeWait) are left open.
func (e *Engine) Close() error {
	e.endLife()
	done := make(chan struct{})
	go func() { e.bg.Wait(); close(done) }()
	closeProfiles := true
	select {
	case <-done:
	case <-time.After(closeWait):
		closeProfiles = false
	}
	err := e.profiles.close(closeProfiles)
	if cerr := e.Engine.Close(); err == nil {
		err = cerr
	}
	return err
}

// TableOptions returns how tables are shown now.
func (e *Engine) TableOptions() TableOptions {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.table
}

// SetTableOptions changes how tables are shown (zero fields keep defaults).
func (e *Engine) SetTableOptions(o TableOptions) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.table = o.norm()
}

// display is the gointerp displayer for nsysx values.
func (e *Engine) display(v any) map[string]any {
	switch x := v.(type) {
	case *nsysx.Result: // a report's result or a recipe table (*recipe.Frame)
		if x == nil {
			return nil
		}
		if x.Typed() {
			return FrameBundle("", x, e.TableOptions())
		}
		return ResultBundle(x, e.TableOptions())
	case []*nsysx.Result:
		return e.resultsBundle(x)
	case *nsysx.ResultCol:
		if err := x.Err(); err != nil { // Col of an unknown name
			return ErrorBundle(err)
		}
		r := &nsysx.Result{Title: "column " + x.Label(), Cols: []*nsysx.ResultCol{x}}
		return ResultBundle(r, e.TableOptions())
	case *nsysx.Profile:
		if x == nil {
			return nil
		}
		return ProfileBundle(e.runningContext(), x, "")
	case *nsysx.Report:
		if x == nil {
			return nil
		}
		return TextBundle(describeReport(x))
	case *compare.Comparison:
		if x == nil {
			return nil
		}
		b := ResultBundle(x.Result(), e.TableOptions())
		b["text/plain"] = x.Summary() + "\n" + b["text/plain"].(string)
		return b
	case *advise.Advice:
		if x == nil {
			return nil
		}
		b := ResultBundle(x.Result(), e.TableOptions())
		b["text/plain"] = x.Summary() + "\n" + b["text/plain"].(string)
		return b
	case *critpath.Result:
		if x == nil {
			return nil
		}
		b := ResultBundle(x.Table(0), e.TableOptions())
		b["text/plain"] = x.Summary() + "\n" + b["text/plain"].(string)
		return b
	case *critpath.RanksResult:
		if x == nil {
			return nil
		}
		return ResultBundle(x.Result(), e.TableOptions())
	case []*nsysx.Report:
		return ReportsBundle(x)
	}
	return e.displayRecipe(v)
}

// displayRecipe shows recipe values (display shows a table): an output (its tables) or a
// result (its tables, then its charts).
func (e *Engine) displayRecipe(v any) map[string]any {
	switch x := v.(type) {
	case *recipe.Output:
		if x != nil {
			return e.outputBundle("", x)
		}
	case *recipe.Result:
		if x != nil && x.Output != nil {
			return e.outputBundle(x.Recipe.Name, x.Output)
		}
	case []*recipe.Recipe:
		return RecipesBundle(x)
	}
	return nil
}

// resultsBundle shows several results one after another, each labelled
// with its profile when they come from several.
func (e *Engine) resultsBundle(rs []*nsysx.Result) map[string]any {
	sources := map[string]bool{}
	for _, r := range rs {
		if r != nil {
			sources[r.Source] = true
		}
	}
	bs := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		if r != nil {
			o := e.TableOptions()
			if len(sources) > 1 {
				o.Label = r.Source
			}
			bs = append(bs, ResultBundle(r, o))
		}
	}
	return joinBundles(bs)
}

// joinBundles puts the HTML and text of several bundles one after another.
func joinBundles(bs []map[string]any) map[string]any {
	var h, t []string
	for _, b := range bs {
		if s, ok := b["text/html"].(string); ok {
			h = append(h, s)
		}
		if s, ok := b["text/plain"].(string); ok {
			t = append(t, s)
		}
	}
	return map[string]any{"text/html": strings.Join(h, "\n"), "text/plain": strings.Join(t, "\n\n")}
}

// ReportsBundle lists reports or rules: name, title, 2022.4 names, help.
func ReportsBundle(rs []*nsysx.Report) map[string]any {
	rows := make([][3]string, len(rs))
	for i, r := range rs {
		rows[i] = [3]string{r.Name, r.Title, r.Help}
	}
	return listBundle("name", "title", rows)
}

// listBundle is a table of (name, title, what it shows) rows: HTML with the
// two column heads given, and text of name and title.
func listBundle(nameHead, titleHead string, rows [][3]string) map[string]any {
	var h, t strings.Builder
	fmt.Fprintf(&h, `<table class="nsysx-table"><thead><tr><th style="text-align:left">%s</th><th style="text-align:left">%s</th><th style="text-align:left">what it shows</th></tr></thead><tbody>`, nameHead, titleHead)
	for _, r := range rows {
		fmt.Fprintf(&h, `<tr><td style="text-align:left"><code>%s</code></td><td style="text-align:left">%s</td><td style="text-align:left">%s</td></tr>`,
			html.EscapeString(r[0]), html.EscapeString(r[1]), html.EscapeString(r[2]))
		fmt.Fprintf(&t, "%-28s %s\n", r[0], r[1])
	}
	h.WriteString("</tbody></table>")
	return map[string]any{"text/html": h.String(), "text/plain": strings.TrimRight(t.String(), "\n")}
}

// describeReport is the help of a report or rule, as --help-reports NAME.
func describeReport(r *nsysx.Report) string {
	var b strings.Builder
	kind := "report"
	if r.Rule {
		kind = "rule"
	}
	fmt.Fprintf(&b, "%s (%s) -- %s\n", r.Name, kind, r.Title)
	if len(r.Aliases) > 0 {
		fmt.Fprintf(&b, "  also: %s\n", strings.Join(r.Aliases, ", "))
	}
	fmt.Fprintf(&b, "  %s\n", r.Help)
	for _, op := range r.Options {
		n := op.Name
		if !op.Flag {
			n += "=VALUE"
			if op.Default != "" {
				n += " (default " + op.Default + ")"
			}
		}
		fmt.Fprintf(&b, "  :%-24s %s\n", n, op.Help)
	}
	b.WriteString("  :start=NS :end=NS :nvtx=RANGE[@DOMAIN]  restrict to a time window or NVTX range")
	return b.String()
}

// newDisplayID returns a fresh display id for progress displays.
func (e *Engine) newDisplayID(kind string) string {
	return fmt.Sprintf("nsysx-%s-%d", kind, e.ids.Add(1))
}

// bindProfile makes a Go variable name hold p in the cells.
func (e *Engine) bindProfile(ctx context.Context, name string, p *nsysx.Profile) error {
	e.profiles.bind(name, p)
	code := fmt.Sprintf("%s := %s.Bound(%q)", name, bindName, name)
	if err := e.Engine.Execute(ctx, code, kernel.TextOutput{W: discard{}}); err != nil {
		return fmt.Errorf("binding %s: %w", name, err)
	}
	return nil
}

// Execute runs a cell with a fresh ctx variable: the cell's own context
// (cellContext), which library calls take (p.Stats(ctx, ...)).
func (e *Engine) Execute(ctx context.Context, code string, out kernel.Output) error {
	cc := e.cellContext(ctx)
	stop := context.AfterFunc(ctx, cc.cancel) // an interrupt while the cell runs
	defer func() {
		stop()
		if ctx.Err() != nil {
			cc.cancel() // stop may have kept the scheduled cancel from running
		}
	}()
	e.cell.Store(code)
	prelude := "ctx := " + bindName + ".CellContext()"
	if err := e.Engine.Execute(ctx, prelude, kernel.TextOutput{W: discard{}}); err != nil {
		return fmt.Errorf("setting the cell's ctx: %w", err)
	}
	return e.Engine.Execute(ctx, code, out)
}

// cellCtx is the context a cell's code sees as ctx. It is cancelled when
// that cell is interrupted, and not when the cell ends: a goroutine the cell
// started keeps working under it while later cells run, and interrupting a
// later cell (whose ctx is another) does not stop it. Closing the engine
// cancels them all.
type cellCtx struct {
	of     context.Context // the kernel's context of the cell
	ctx    context.Context
	cancel context.CancelFunc
}

// cellContext returns the cell context for the kernel's context ctx: the
// same for every code segment of one cell, a new one for a new cell.
func (e *Engine) cellContext(ctx context.Context) *cellCtx {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur != nil && e.cur.of == ctx {
		return e.cur
	}
	c, cancel := context.WithCancel(e.life)
	e.cur = &cellCtx{of: ctx, ctx: c, cancel: cancel}
	return e.cur
}

// runningContext is the context of the cell running or last run (the
// engine's own before the first cell): what nb.Open and the display of
// values read under.
func (e *Engine) runningContext() context.Context {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur == nil {
		return e.life
	}
	return e.cur.ctx
}
