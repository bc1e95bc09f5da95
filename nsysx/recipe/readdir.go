package recipe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// ReadDir reads a recipe output directory back (docs/recipes.md §1.6), as
// nsys or Result.Write left it: the recipe from the .nsys-analysis file
// (RecipeName; diff's file has none and is recognised by its DiffDirs),
// every <name>.parquet as an output table, in name order, the report stems
// from files.parquet and the inputs from the recorded options. A recipe
// this nsysx does not know gets a Recipe with only its name.
func ReadDir(dir string) (*Result, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading recipe output %s: %w", dir, err)
	}
	res := &Result{Opts: Defaults(), Output: &Output{}}
	var names []string
	for _, e := range ents {
		switch n := e.Name(); {
		case strings.HasSuffix(n, ".nsys-analysis") && !e.IsDir():
			if res.Recipe, err = readAnalysis(filepath.Join(dir, n), res.Opts); err != nil {
				return nil, err
			}
		case strings.HasSuffix(n, ".parquet") && !e.IsDir():
			names = append(names, strings.TrimSuffix(n, ".parquet"))
		}
	}
	if res.Recipe == nil {
		return nil, fmt.Errorf("%s: no .nsys-analysis file: not a recipe output directory", dir)
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := pyframe.ReadParquet(filepath.Join(dir, n+".parquet"))
		if err != nil {
			return nil, err
		}
		res.Output.Tables = append(res.Output.Tables, Table{Name: n, Frame: f})
	}
	if f := res.Output.Table("files"); f != nil {
		if c := f.Find("File"); c != nil && c.Type == pyframe.String {
			res.Files = append(res.Files, c.Strs...)
		}
	}
	return res, nil
}

// readAnalysis reads the recipe name and the recorded inputs.
func readAnalysis(path string, o *Options) (*Recipe, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var a struct {
		RecipeName  string
		DisplayName string
		DiffDirs    []string
		Options     struct {
			Input []string `json:"input"`
		}
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	name := a.RecipeName
	if name == "" && a.DiffDirs != nil {
		name = DiffName
	}
	o.Input = a.Options.Input
	if name == "" {
		return nil, fmt.Errorf("%s: no RecipeName", path)
	}
	if r, err := Lookup(name); err == nil {
		return r, nil
	}
	return &Recipe{Name: name, DisplayName: a.DisplayName}, nil
}
