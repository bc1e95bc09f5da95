package recipe

import (
	"fmt"
	"time"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// The .nsys-analysis file (docs/recipes.md §1.6).

// AnalysisTimeLayout is how StartTime and EndTime are written (local time).
const AnalysisTimeLayout = "2006-01-02 15:04:05.000000"

// AnalysisTime formats t as the .nsys-analysis StartTime/EndTime do.
func AnalysisTime(t time.Time) string { return t.Local().Format(AnalysisTimeLayout) }

// Analysis returns the content of the run's .nsys-analysis file in nsys's
// key order: the recipe's own Output.Analysis when it set one (diff),
// otherwise RecipeVersion (the run's year.month, no zero padding),
// RecipeName, DisplayName, Options, StartTime, EndTime and Outputs.
// output is the directory recorded under Options.output (nil when
// --output was not given).
func (r *Result) Analysis(output any) ([]pyframe.KV, error) {
	if r.Output != nil && r.Output.Analysis != nil {
		return r.Output.Analysis, nil
	}
	start, end := r.Start, r.End
	if start.IsZero() {
		start = time.Now()
	}
	if end.IsZero() {
		end = time.Now()
	}
	opts, err := OptionsJSON(r.Recipe, r.Opts, output)
	if err != nil {
		return nil, err
	}
	outputs := []pyframe.KV{}
	for _, nb := range append([]string{r.Recipe.Notebook}, r.Recipe.MoreNotebooks...) {
		if nb != "" {
			outputs = append(outputs, pyframe.KV{Key: nb, Value: "Notebook"})
		}
	}
	local := start.Local()
	return []pyframe.KV{
		{Key: "RecipeVersion", Value: fmt.Sprintf("%d.%d", local.Year(), int(local.Month()))},
		{Key: "RecipeName", Value: r.Recipe.Name},
		{Key: "DisplayName", Value: r.Recipe.DisplayName},
		{Key: "Options", Value: opts},
		{Key: "StartTime", Value: AnalysisTime(start)},
		{Key: "EndTime", Value: AnalysisTime(end)},
		{Key: "Outputs", Value: outputs},
	}, nil
}

// AnalysisJSON is the run's .nsys-analysis file as Write writes it.
func (r *Result) AnalysisJSON(output any) ([]byte, error) {
	a, err := r.Analysis(output)
	if err != nil {
		return nil, err
	}
	return EncodeAnalysis(a)
}

// EncodeAnalysis renders an .nsys-analysis object as nsys writes it:
// Python's json.dumps with indent 4 and ASCII escapes, no final newline.
func EncodeAnalysis(a []pyframe.KV) ([]byte, error) {
	s, err := pyframe.PyJSON(a, 4)
	return []byte(s), err
}

// OptionsJSON is the Options object of .nsys-analysis: output,
// force_overwrite, the recipe's options in its declared order, mode, and
// for a recipe with start/end but no filter_time option (nccl_sum) a
// trailing filter_time when start or end was given.
func OptionsJSON(r *Recipe, o *Options, output any) ([]pyframe.KV, error) {
	out := []pyframe.KV{{Key: "output", Value: output}, {Key: "force_overwrite", Value: o.ForceOverwrite}}
	for _, key := range r.Options {
		v, err := optionValue(key, o)
		if err != nil {
			return nil, fmt.Errorf("recipe %s: %w", r.Name, err)
		}
		out = append(out, pyframe.KV{Key: key, Value: v})
	}
	out = append(out, pyframe.KV{Key: "mode", Value: modeJSON(o.Mode)})
	if r.HasOption("start") && !r.HasOption("filter_time") && (o.Start != nil || o.End != nil) {
		out = append(out, pyframe.KV{Key: "filter_time", Value: []any{o.Start, o.End}})
	}
	return out, nil
}

func modeJSON(m string) string {
	switch m {
	case "", "concurrent":
		return "concurrent"
	case "dask-futures", "dask_futures":
		return "dask_futures"
	}
	return m
}

// optionValue is one option's recorded value. --filter-time overrides
// start/end; without it, --start/--end are recorded as filter_time too.
func optionValue(key string, o *Options) (any, error) {
	switch key {
	case "input":
		return append([]string{}, o.Input...), nil
	case "start", "end":
		s, e := o.Start, o.End
		if o.FilterTime != nil {
			s, e = o.FilterTime.Start, o.FilterTime.End
		}
		if key == "start" {
			return s, nil
		}
		return e, nil
	case "filter_time":
		switch {
		case o.FilterTime != nil:
			return []any{o.FilterTime.Start, o.FilterTime.End}, nil
		case o.Start != nil || o.End != nil:
			return []any{o.Start, o.End}, nil
		}
		return nil, nil
	case "filter_nvtx":
		return nvtxJSON(o.FilterNVTX), nil
	case "filter_projected_nvtx":
		return nvtxJSON(o.FilterProjectedNVTX), nil
	case "nvtx":
		return nvtxJSON(o.NVTX), nil
	case "per_gpu":
		return flagList(o.PerGPU, "deviceId"), nil
	case "per_stream":
		return flagList(o.PerStream, "deviceId", "streamId"), nil
	case "name":
		if o.Name == "" {
			return nil, nil
		}
		return o.Name, nil
	}
	if v, ok := scalarOption(key, o); ok {
		return v, nil
	}
	if v, ok := o.Values[key]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("option %q has no value to record (set Options.Values[%q])", key, key)
}

func scalarOption(key string, o *Options) (any, bool) {
	m := map[string]any{
		"csv": o.CSV, "bins": o.Bins, "disable_alignment": o.DisableAlignment,
		"cumulative": o.Cumulative, "rows": o.Rows, "threshold": o.Threshold,
		"chunks": o.Chunks, "gap": o.Gap, "tolerance": o.Tolerance, "drop": o.Drop,
	}
	v, ok := m[key]
	return v, ok
}

func nvtxJSON(n *NVTXRange) any {
	if n == nil {
		return nil
	}
	var dom, idx any
	if n.Domain != nil {
		dom = *n.Domain
	}
	if n.Index != nil {
		idx = *n.Index
	}
	return []any{n.Range, dom, idx}
}

func flagList(on bool, cols ...string) []string {
	if !on {
		return []string{}
	}
	return cols
}
