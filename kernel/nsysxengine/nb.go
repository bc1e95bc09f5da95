package nsysxengine

import (
	"reflect"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// Shown is a value that displays as a fixed MIME bundle (nb.Table).
type Shown struct{ Bundle map[string]any }

// MIMEBundle implements gointerp.MIMEBundler.
func (s Shown) MIMEBundle() map[string]any { return s.Bundle }

// nbSymbols is the "nsysx/nb" package of cells: notebook helpers bound to
// this engine (its profile cache and table options).
func (e *Engine) nbSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{NBPath + "/nb": {
		"Open": reflect.ValueOf(func(path string) (*nsysx.Profile, error) {
			return e.profiles.get(e.runningContext(), path)
		}),
		"Unpack": reflect.ValueOf(func(path string) (string, error) {
			return e.profiles.unpacked(e.runningContext(), path)
		}),
		"CellContext": reflect.ValueOf(e.runningContext),
		"Bound": reflect.ValueOf(func(name string) *nsysx.Profile {
			e.profiles.mu.Lock()
			defer e.profiles.mu.Unlock()
			return e.profiles.bound[name]
		}),
		"BoundResult": reflect.ValueOf(func(name string) *nsysx.Result {
			e.profiles.mu.Lock()
			defer e.profiles.mu.Unlock()
			return e.profiles.tables[name]
		}),
		"Results": reflect.ValueOf(func() []*nsysx.Result {
			e.profiles.mu.Lock()
			defer e.profiles.mu.Unlock()
			return append([]*nsysx.Result(nil), e.profiles.results...)
		}),
		"Table": reflect.ValueOf(func(r *nsysx.Result, rows int) Shown {
			o := e.TableOptions()
			o.MaxRows = rows
			return Shown{ResultBundle(r, o)}
		}),
		"SetMaxRows": reflect.ValueOf(func(n int) {
			o := e.TableOptions()
			o.MaxRows = n
			e.SetTableOptions(o)
		}),
		"SetMaxText": reflect.ValueOf(func(n int) {
			o := e.TableOptions()
			o.MaxText = n
			e.SetTableOptions(o)
		}),
		"VarName":      reflect.ValueOf(VarName),
		"RecipeResult": reflect.ValueOf(e.recipeResult),
		"LoadRecipe":   reflect.ValueOf(recipe.ReadDir),
		"Shown":        reflect.ValueOf((*Shown)(nil)),
	}}
}

// nbDocs documents the nb package for inspect requests.
var nbDocs = map[string]string{
	"nb.Open": "func Open(path string) (*nsysx.Profile, error)\n\nOpen opens a profile like nsysx.Open, and also a gzipped export " +
		"(train.sqlite.gz or .zst, decompressed once into the nsysx cache, as nsysx.Open does) or \"sample\" (nsysx.OpenSample). Profiles are cached: opening " +
		"the same unchanged file again returns the same *nsysx.Profile, whose loaded columns %nsys and %plot share.",
	"nb.Unpack": "func Unpack(path string) (string, error)\n\nUnpack returns the path of the decompressed copy of a .gz or .zst file " +
		"(made once, kept in the nsysx cache while fresh: nsysx.Decompressed), or path itself for other files.",
	"nb.CellContext": "func CellContext() context.Context\n\nCellContext returns the context of the cell running now: the cell's " +
		"ctx variable. A function declared in one cell and called from later ones can call it instead of using ctx, which " +
		"stays the declaring cell's.",
	"nb.Bound":       "func Bound(name string) *nsysx.Profile\n\nBound returns the profile %open bound to name, or nil.",
	"nb.BoundResult": "func BoundResult(name string) *nsysx.Result\n\nBoundResult returns the rows %%sql ... as name bound, or nil.",
	"nb.Results":     "func Results() []*nsysx.Result\n\nResults returns the results of the last %nsys stats or %nsys analyze.",
	"nb.Table": "func Table(r *nsysx.Result, rows int) Shown\n\nTable shows r with at most rows rows (the default is 50, " +
		"see SetMaxRows).",
	"nb.SetMaxRows": "func SetMaxRows(n int)\n\nSetMaxRows sets how many rows tables show (default 50).",
	"nb.SetMaxText": "func SetMaxText(n int)\n\nSetMaxText sets how many characters of a text cell tables show before " +
		"shortening it (default 60); the whole text stays in the cell's hover title.",
	"nb.VarName": "func VarName(path string) string\n\nVarName is the variable name %open gives a file: " +
		"\"train.sqlite.gz\" gives \"train\".",
	"nb.RecipeResult": "func RecipeResult(name string) *recipe.Result\n\nRecipeResult returns the result %nsys recipe left " +
		"in the variable name (default recipeResult), or nil.",
	"nb.LoadRecipe": "func LoadRecipe(dir string) (*recipe.Result, error)\n\nLoadRecipe reads a recipe output directory " +
		"(written by nsys recipe, nsysx recipe or %nsys recipe --output) back: the recipe, every Parquet table, the report stems " +
		"(recipe.ReadDir).",
	"nb.Shown": "type Shown struct{ Bundle map[string]any }\n\nShown is a value that displays as a fixed MIME bundle.",
}
