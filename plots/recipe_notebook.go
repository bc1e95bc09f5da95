package plots

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// RecipeExtra returns the hook that Result.Write runs on the output
// directory before it is published (recipe.WriteOptions.Extra): it writes
// the recipe's charts (NAME.svg and NAME.vl.json, plus NAME.png when
// res.Opts.PNG is set: `nsysx recipe --png`) and, under the
// recipe's notebook name (stats.ipynb, heatmap.ipynb, ...: the file the
// .nsys-analysis lists under Outputs), a notebook for the nsysx Jupyter
// kernel that reads the tables back and shows them and the charts. nsys
// writes its own Python notebook there instead.
func RecipeExtra(res *recipe.Result) func(dir string) error {
	return func(dir string) error {
		files, err := writeRecipeCharts(dir, res.Recipe.Name, res.Output, withPNG(res))
		if err != nil {
			return err
		}
		var charts []string
		for _, f := range files {
			if n, ok := strings.CutSuffix(f, ".svg"); ok {
				charts = append(charts, n)
			}
		}
		nb, err := RecipeNotebook(res, charts)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, notebookName(res.Recipe)), nb, 0o644)
	}
}

// withPNG reports whether a run asked for PNG charts (--png).
func withPNG(res *recipe.Result) bool { return res.Opts != nil && res.Opts.PNG }

func notebookName(r *recipe.Recipe) string {
	if r.Notebook != "" {
		return r.Notebook
	}
	return r.Name + ".ipynb"
}

// notebook is an nbformat 4.5 document.
type notebook struct {
	Cells         []map[string]any `json:"cells"`
	Metadata      map[string]any   `json:"metadata"`
	NBFormat      int              `json:"nbformat"`
	NBFormatMinor int              `json:"nbformat_minor"`
}

// nbSource splits text into nbformat source lines (each but the last
// keeps its newline).
func nbSource(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// RecipeNotebook is the nsysx-kernel notebook of a recipe output
// directory (nbformat 4.5 JSON): the tables read back with
// nb.LoadRecipe("."), each shown in its own cell, then the charts redrawn
// with plots.RecipeCharts (charts names the chart files written next to
// it, in order). Code cells are not executed: the notebook has no outputs.
func RecipeNotebook(res *recipe.Result, charts []string) ([]byte, error) {
	nb := &notebook{Metadata: map[string]any{
		"kernelspec":    map[string]any{"display_name": "nsysx (Go)", "language": "go", "name": "nsysx"},
		"language_info": map[string]any{"name": "go", "file_extension": ".go", "mimetype": "text/x-go", "codemirror_mode": "go"},
	}, NBFormat: 4, NBFormatMinor: 5}
	add := func(kind, text string) {
		c := map[string]any{"id": fmt.Sprintf("nsysx-%02d", len(nb.Cells)+1), "cell_type": kind, "metadata": map[string]any{},
			"source": nbSource(text)}
		if kind == "code" {
			c["execution_count"], c["outputs"] = nil, []any{}
		}
		nb.Cells = append(nb.Cells, c)
	}
	r := res.Recipe
	title := r.Name
	if r.DisplayName != "" {
		title = r.DisplayName + " (" + r.Name + ")"
	}
	add("markdown", fmt.Sprintf("# %s\n\nThe output of `nsysx recipe %s` over %s. This notebook runs on the nsysx Go kernel "+
		"(`nsysx kernel install`): its cells read the Parquet files of this directory. `res` is a `*recipe.Result`, as "+
		"`%%nsys recipe` leaves in `recipeResult`.", title, r.Name, reportsText(res)))
	add("code", "res, err := nb.LoadRecipe(\".\")\nif err != nil {\n\tpanic(err)\n}\nres.Files")
	for _, t := range res.Output.Tables {
		add("markdown", fmt.Sprintf("## %s.parquet", t.Name))
		add("code", fmt.Sprintf("res.Output.Table(%q)", t.Name))
	}
	if len(charts) > 0 {
		add("markdown", "## Charts\n\nRedrawn from the tables; the same charts are saved next to this notebook as "+
			chartFormats(withPNG(res))+": "+chartFiles(charts)+".")
		add("code", "charts, err := plots.RecipeCharts(res.Recipe.Name, res.Output)\nif err != nil {\n\tpanic(err)\n}\nlen(charts)")
		for i := range charts {
			add("code", fmt.Sprintf("charts[%d]", i))
		}
	}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func reportsText(res *recipe.Result) string {
	switch n := len(res.Files); {
	case n == 0:
		return "its inputs"
	case n <= 8:
		return fmt.Sprintf("%d report(s): %s", n, strings.Join(res.Files, ", "))
	default:
		return fmt.Sprintf("%d reports: %s … %s", n, res.Files[0], res.Files[n-1])
	}
}

func chartFiles(charts []string) string {
	out := make([]string, len(charts))
	for i, c := range charts {
		out[i] = "`" + c + ".svg`"
	}
	return strings.Join(out, ", ")
}

// chartFormats names the formats of chartExts.
func chartFormats(png bool) string {
	if png {
		return "PNG, SVG and Vega-Lite (`.vl.json`)"
	}
	return "SVG and Vega-Lite (`.vl.json`; `nsysx recipe --png` adds PNGs)"
}
