package nsysxengine

import (
	"reflect"
	"sync"
)

// Symbols holds the compiled packages cells can import, in yaegi's
// format: "import/path/name" -> exported name -> value; it is empty until
// loadSymbols. The loaders of symbols_gen.go fill it: yaegi extract writes
// a file a package, internal/lazyinit turns their init functions into symbols_critpath.go
// loaders and joins them into that one file, so that only a starting kernel
// builds the tables, not every CLI run (run `go generate
// ./kernel/nsysxengine` after the exported API of nsysx, format, plots,
// recipe (and its pyframe, composite, recipes), compare, timeline, advise or
// the model's packages (model, frame, events) changes; TestSymbolsUpToDate says when).
var Symbols = map[string]map[string]reflect.Value{}

var symbolsOnce sync.Once

// loadSymbols fills Symbols (once) and returns it.
func loadSymbols() map[string]map[string]reflect.Value {
	symbolsOnce.Do(func() {
		for _, f := range symbolLoaders {
			f()
		}
	})
	return Symbols
}

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name nsysxengine github.com/nsysx/nsysx/nsysx github.com/nsysx/nsysx/nsysx/format github.com/nsysx/nsysx/plots github.com/nsysx/nsysx/nsysx/recipe github.com/nsysx/nsysx/nsysx/recipe/pyframe github.com/nsysx/nsysx/nsysx/recipe/composite github.com/nsysx/nsysx/nsysx/recipe/recipes github.com/nsysx/nsysx/nsysx/compare github.com/nsysx/nsysx/nsysx/timeline github.com/nsysx/nsysx/nsysx/advise github.com/nsysx/nsysx/nsysx/model github.com/nsysx/nsysx/nsysx/frame github.com/nsysx/nsysx/nsysx/events github.com/nsysx/nsysx/nsysx/critpath
//go:generate mv github_com-nsysx-nsysx-nsysx.go symbols_nsysx.go
//go:generate mv github_com-nsysx-nsysx-nsysx-compare.go symbols_compare.go
//go:generate mv github_com-nsysx-nsysx-nsysx-timeline.go symbols_timeline.go
//go:generate mv github_com-nsysx-nsysx-nsysx-format.go symbols_format.go
//go:generate mv github_com-nsysx-nsysx-plots.go symbols_plots.go
//go:generate mv github_com-nsysx-nsysx-nsysx-recipe.go symbols_recipe.go
//go:generate mv github_com-nsysx-nsysx-nsysx-recipe-pyframe.go symbols_pyframe.go
//go:generate mv github_com-nsysx-nsysx-nsysx-recipe-composite.go symbols_composite.go
//go:generate mv github_com-nsysx-nsysx-nsysx-recipe-recipes.go symbols_recipes.go
//go:generate mv github_com-nsysx-nsysx-nsysx-advise.go symbols_advise.go
//go:generate mv github_com-nsysx-nsysx-nsysx-model.go symbols_model.go
//go:generate mv github_com-nsysx-nsysx-nsysx-frame.go symbols_frame.go
//go:generate mv github_com-nsysx-nsysx-nsysx-events.go symbols_events.go
//go:generate mv github_com-nsysx-nsysx-nsysx-critpath.go symbols_critpath.go
//go:generate go run ../../internal/lazyinit -merge -list symbols_gen.go -var symbolLoaders symbols_nsysx.go symbols_compare.go symbols_timeline.go symbols_format.go symbols_plots.go symbols_recipe.go symbols_pyframe.go symbols_composite.go symbols_recipes.go symbols_advise.go symbols_model.go symbols_frame.go symbols_events.go symbols_critpath.go
//go:generate go run gen_docs.go -o docs_gen.go ../../nsysx ../../nsysx/format ../../plots ../../nsysx/recipe ../../nsysx/recipe/pyframe ../../nsysx/recipe/composite ../../nsysx/recipe/recipes ../../nsysx/compare ../../nsysx/timeline ../../nsysx/advise ../../nsysx/model ../../nsysx/frame ../../nsysx/events ../../nsysx/critpath
