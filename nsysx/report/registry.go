package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/nsysx/nsysx/internal/suggest"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Report describes one `nsys stats` report or `nsys analyze` rule.
type Report struct {
	Name    string                        // script name, e.g. "cuda_gpu_kern_sum"
	Title   string                        // display name, e.g. "CUDA GPU Kernel Summary"
	Aliases []string                      // 2022.4 names, e.g. "gpukernsum"
	Help    string                        // what it shows, in our words
	Options []Option                      // accepted options besides start=, end=, nvtx=
	Rule    bool                          // an `nsys analyze` rule
	Run     func(c *Ctx) (*Result, error) // computes the report
}

// Option is one report option (`-r name:opt[=value]`).
type Option struct {
	Name    string
	Default string // "" for flags
	Help    string
	Flag    bool // takes no value
}

var registry = map[string]*Report{}

// register adds a report (or rule) to the registry.
func Register(r *Report) {
	registry[r.Name] = r
	for _, a := range r.Aliases {
		registry[a] = r
	}
}

// DefaultReports is what `nsys stats` 2025.3 runs when no report is named.
func DefaultReports() []string {
	return []string{"nvtx_sum", "osrt_sum", "cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum",
		"cuda_gpu_mem_size_sum", "openmp_sum", "opengl_khr_range_sum", "opengl_khr_gpu_range_sum", "vulkan_marker_sum",
		"vulkan_gpu_marker_sum", "dx11_pix_sum", "dx12_gpu_marker_sum", "dx12_pix_sum", "wddm_queue_sum", "um_sum",
		"um_total_sum", "um_cpu_page_faults_sum", "openacc_sum", "syscall_sum"}
}

// Reports lists the stats reports (rules excluded), sorted by name.
func Reports() []*Report { return list(false) }

// Rules lists the analyze rules, sorted by name.
func Rules() []*Report { return list(true) }

func list(rules bool) []*Report {
	var out []*Report
	for k, r := range registry {
		if k == r.Name && r.Rule == rules {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupReport finds a report by name or 2022.4 alias.
func LookupReport(name string) (*Report, error) { return lookup(name, false) }

// LookupRule finds a rule by name (or 2022.4 name).
func LookupRule(name string) (*Report, error) { return lookup(name, true) }

func lookup(name string, rule bool) (*Report, error) {
	if r, ok := registry[name]; ok && r.Rule == rule {
		return r, nil
	}
	kind, all := "report", Reports()
	if rule {
		kind, all = "rule", Rules()
	}
	var names []string
	for _, r := range all {
		names = append(names, r.Name)
		names = append(names, r.Aliases...)
	}
	return nil, fmt.Errorf("unknown %s %q%s", kind, name, Suggest(name, names))
}

// Suggest returns " (did you mean X?)" for the closest names, or "".
func Suggest(name string, names []string) string { return suggest.Suggest(name, names) }

// Spec is a parsed `name[:opt[=value]...]` request.
type Spec struct {
	Name string
	Opts []KV
}

// KV is one option.
type KV struct{ Key, Value string }

// ParseSpec splits "cuda_gpu_kern_sum:base:nvtx-name" or "gpu_gaps:gap=1".
func ParseSpec(s string) Spec {
	parts := strings.Split(s, ":")
	sp := Spec{Name: parts[0]}
	for _, p := range parts[1:] {
		if p == "" {
			continue
		}
		p = strings.TrimPrefix(p, "--")
		k, v, _ := strings.Cut(p, "=")
		sp.Opts = append(sp.Opts, KV{k, v})
	}
	return sp
}

// ErrBadOption wraps errors about report options (package model).
var ErrBadOption = model.ErrBadOption

// Ctx is what a report computes with: the profile (possibly filtered) and the
// parsed options.
type Ctx struct {
	Context context.Context
	P       *model.Profile
	Report  *Report
	opts    map[string]string
	Filter  *Filter

	strErr atomic.Pointer[error] // StringIds could not be read (String)
}

// Opt returns an option's value and whether it was given.
func (c *Ctx) Opt(name string) (string, bool) { v, ok := c.opts[name]; return v, ok }

// Flag reports whether a flag option was given.
func (c *Ctx) Flag(name string) bool { _, ok := c.opts[name]; return ok }

// IntOpt returns an integer option or its default.
func (c *Ctx) IntOpt(name string, def int) (int, error) {
	v, ok := c.opts[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%w: %s=%q is not an integer", ErrBadOption, name, v)
	}
	return n, nil
}

// Path is the profile path as typed, for messages.
func (c *Ctx) Path() string { return c.P.Path }

// Skip returns a SKIPPED result.
func (c *Ctx) Skip(msg string) (*Result, error) {
	return Skip(c.Report.Name, c.Report.Title, msg), nil
}

// Has reports whether the (possibly filtered) profile has a table.
func (c *Ctx) Has(table string) bool { return c.P.HasTable(table) }

// ctx is the report's context.
func (c *Ctx) ctx() context.Context { return c.Context }

// LoadRaw loads columns ignoring any filter (nsys's `main.X` queries).
func (c *Ctx) LoadRaw(table string, cols ...string) (*Table, error) {
	return c.P.Load(c.ctx(), table, cols...)
}

// Str returns StringIds[id] as a value (NULL when absent).
func (c *Ctx) Str(col *Column, i int) Value {
	if col == nil || col.IsNull(i) {
		return Null
	}
	s, ok := c.String(col.Int(i))
	if !ok {
		return Null
	}
	return TextV(s)
}

// RunTyped computes a typed result (Profile.IdleBreakdown, KernelStacks):
// it builds the report's Ctx, resolves the filter (a filter that skips gives
// skipped(msg)), runs run and finishes as Finish does.
func RunTyped[T any](ctx context.Context, p *model.Profile, report string, opts map[string]string, f *Filter,
	skipped func(msg string) T, run func(c *Ctx) (T, error)) (T, error) {
	var zero T
	if ctx == nil {
		return zero, ErrNilContext
	}
	c := &Ctx{Context: ctx, P: p, Report: registry[report], opts: opts, Filter: f}
	if c.Filter != nil {
		msg, err := c.Filter.Resolve(ctx, p)
		if err != nil {
			return zero, err
		}
		if msg != "" {
			return skipped(msg), nil
		}
	}
	v, err := run(c)
	return Finish(c, v, err)
}

// Finish returns v, or c.namesErr() when err is nil and StringIds could
// not be read for a name the computation wanted.
func Finish[T any](c *Ctx, v T, err error) (T, error) {
	if err == nil {
		err = c.namesErr()
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// namesErr is the error met by String, or nil.
func (c *Ctx) namesErr() error {
	if e := c.strErr.Load(); e != nil {
		return *e
	}
	return nil
}

// String returns StringIds[id], read under the report's context. When
// StringIds cannot be read, ok is false and the report fails with that
// error once it returns (RunReport), instead of showing empty names.
func (c *Ctx) String(id int64) (string, bool) {
	m, err := c.P.Strings(c.ctx())
	if err != nil {
		c.strErr.CompareAndSwap(nil, &err)
		return "", false
	}
	s, ok := m[id]
	return s, ok
}

// Run computes a report or rule given as "name[:opt...]" on the profile.
func Run(ctx context.Context, p *model.Profile, spec string, f *Filter) (*Result, error) {
	sp := ParseSpec(spec)
	r, ok := registry[sp.Name]
	if !ok {
		if _, err := LookupReport(sp.Name); err != nil {
			if _, err2 := LookupRule(sp.Name); err2 != nil {
				return nil, err
			}
		}
	}
	return RunReport(ctx, p, r, sp.Opts, f)
}

// Stats computes a stats report ("cuda_gpu_kern_sum", "cuda_gpu_kern_sum:base");
// cancelling ctx stops it with ctx.Err().
func Stats(ctx context.Context, p *model.Profile, spec string) (*Result, error) {
	return runLookedUp(ctx, p, spec, LookupReport)
}

// Analyze runs an analyze rule ("gpu_gaps", "gpu_gaps:gap=1"); cancelling
// ctx stops it with ctx.Err().
func Analyze(ctx context.Context, p *model.Profile, spec string) (*Result, error) {
	return runLookedUp(ctx, p, spec, LookupRule)
}

// runLookedUp runs spec's report, found by lookup, without a filter.
func runLookedUp(ctx context.Context, p *model.Profile, spec string, lookup func(string) (*Report, error)) (*Result, error) {
	sp := ParseSpec(spec)
	r, err := lookup(sp.Name)
	if err != nil {
		return nil, err
	}
	return RunReport(ctx, p, r, sp.Opts, nil)
}

// RunReport computes r with options and an optional filter. SKIPPED reports
// are results with Skipped set, not errors; errors are bad options, a
// cancelled context or an unreadable file.
func RunReport(ctx context.Context, p *model.Profile, r *Report, opts []KV, f *Filter) (res *Result, err error) {
	if ctx == nil {
		return nil, ErrNilContext
	}
	c := &Ctx{Context: ctx, P: p, Report: r, opts: map[string]string{}, Filter: f}
	if err := CheckOptions(r, opts); err != nil {
		return nil, err
	}
	var args []string
	for _, kv := range opts {
		c.opts[kv.Key] = kv.Value
		if kv.Value != "" {
			args = append(args, kv.Key+"="+kv.Value)
		} else {
			args = append(args, kv.Key)
		}
	}
	defer recoverReport(r, p, &res, &err)
	// A filter that cannot apply (an NVTX range not found) surfaces from the
	// first filtered Load as a *SkipError, after the report's own table checks,
	// in nsys's order.
	res, err = r.Run(c)
	res, err = Finish(c, res, err)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		return skipped(p, r, err)
	}
	res.Args = strings.Join(args, ":")
	res.Source = p.Base()
	if res.Report == "" {
		res.Report, res.Title = r.Name, r.Title
	}
	return res, nil
}

// recoverReport turns a panic of r into its error: an *OverflowError as it
// is, anything else as a failure of the report (re-panicking when
// NSYSX_DEBUG is set).
func recoverReport(r *Report, p *model.Profile, res **Result, err *error) {
	e := recover()
	if e == nil {
		return
	}
	*res = nil
	if oe, ok := e.(*OverflowError); ok {
		*err = fmt.Errorf("%s on %s: %w", r.Name, p.Path, oe)
		return
	}
	if os.Getenv("NSYSX_DEBUG") != "" {
		panic(e)
	}
	*err = fmt.Errorf("report %s failed on %s: %v", r.Name, p.Path, e)
}

// skipped is the SKIPPED result of a report that failed for want of data
// (a filter's range not found, a missing column), or err itself.
func skipped(p *model.Profile, r *Report, err error) (*Result, error) {
	var se *SkipError
	if errors.As(err, &se) {
		res := Skip(r.Name, r.Title, se.Msg)
		res.Source = p.Base()
		return res, nil
	}
	var mc *MissingColumnError
	if errors.As(err, &mc) {
		res := Skip(r.Name, r.Title, fmt.Sprintf("%s does not contain the '%s' column in %s.", p.Path, mc.Column, mc.Table))
		res.Source = p.Base()
		return res, nil
	}
	return nil, err
}

// CheckOptions validates options for a report without running it.
func CheckOptions(r *Report, opts []KV) error {
	for _, kv := range opts {
		o, ok := r.option(kv.Key)
		if !ok {
			return fmt.Errorf("%w for %s: %q (valid: %s)", ErrBadOption, r.Name, kv.Key, r.optionNames())
		}
		if o.Flag && kv.Value != "" {
			return fmt.Errorf("%w for %s: %s takes no value", ErrBadOption, r.Name, kv.Key)
		}
		if !o.Flag && kv.Value == "" {
			return fmt.Errorf("%w for %s: %s needs a value (%s=...)", ErrBadOption, r.Name, kv.Key, kv.Key)
		}
	}
	return nil
}

func (r *Report) option(name string) (Option, bool) {
	for _, o := range r.Options {
		if o.Name == name {
			return o, true
		}
	}
	switch name {
	case "start", "end", "nvtx":
		return Option{Name: name}, true
	}
	return Option{}, false
}

func (r *Report) optionNames() string {
	var n []string
	for _, o := range r.Options {
		n = append(n, o.Name)
	}
	n = append(n, "start", "end", "nvtx")
	return strings.Join(n, ", ")
}

// Prefetch loads several tables concurrently through their views (each spec is a
// table name followed by its columns); absent tables are ignored. Later Loads
// of the same columns are then free.
func (c *Ctx) Prefetch(specs ...[]string) error {
	errs := make(chan error, len(specs))
	n := 0
	for _, s := range specs {
		if !c.Has(s[0]) {
			continue
		}
		n++
		go func() {
			_, err := c.View(s[0]).Load(s[1:]...)
			errs <- err
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ErrNilContext is the error of a call given a nil context.
var ErrNilContext = errors.New("nsysx: nil context (pass context.Background() or a cell's ctx)")

// NewCtx is the context of a computation that is not run through RunReport
// (the typed analyses): r may be nil, opts nil for none.
func NewCtx(ctx context.Context, p *model.Profile, r *Report, opts map[string]string, f *Filter) *Ctx {
	if opts == nil {
		opts = map[string]string{}
	}
	return &Ctx{Context: ctx, P: p, Report: r, opts: opts, Filter: f}
}

// Registered returns the report or rule registered under name, or nil.
func Registered(name string) *Report { return registry[name] }
