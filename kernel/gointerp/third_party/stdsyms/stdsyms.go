// Package stdsyms holds yaegi's symbol tables of the standard library
// (github.com/traefik/yaegi/stdlib), built on first use instead of at
// program start. yaegi's own package fills its tables in init functions,
// which every run of the nsysx CLI would pay for although only the kernel
// interprets Go; the files here are yaegi's, copied by go generate with
// their init functions turned into loaders (internal/lazyinit); LICENSE is
// yaegi's (Apache 2.0). debug/elf is left out: its table alone is 1 500
// lines and no notebook reads ELF files. So are packages no notebook has a
// use for whose own initialisers (which run wherever a package is linked,
// tables or not) cost every CLI run about 1.5 MB of resident memory: the
// type checker go/types and go/importer (which needs compiler export data),
// the HTTP debug endpoints expvar and net/http/pprof (they register
// handlers at init), net/rpc and net/rpc/jsonrpc, testing/slogtest.
package stdsyms

import (
	"reflect"
	"sync"
)

//go:generate go run ../../../../internal/lazyinit -mod github.com/traefik/yaegi -dir stdlib -pkg stdsyms -tag go1.22 -list loaders_gen.go -var loaders -skip go1_22_go_types.go,go1_22_go_importer.go,go1_22_expvar.go,go1_22_net_http_pprof.go,go1_22_net_rpc.go,go1_22_net_rpc_jsonrpc.go,go1_22_testing_slogtest.go go1_22_[^d]*.go go1_22_database_*.go go1_22_debug_[^e]*.go maptypes.go restricted.go wrapper-composed.go

// Symbols and MapTypes are the tables, in yaegi's format; they are empty
// until Load.
var (
	Symbols  = map[string]map[string]reflect.Value{}
	MapTypes = map[reflect.Value][]reflect.Type{}
)

var loadOnce sync.Once

// Load fills Symbols and MapTypes (once) and returns Symbols.
func Load() map[string]map[string]reflect.Value {
	loadOnce.Do(func() {
		for _, f := range loaders {
			f()
		}
		// as yaegi's stdlib.go registers them
		Symbols["github.com/traefik/yaegi/stdlib/stdlib"] = map[string]reflect.Value{"Symbols": reflect.ValueOf(Symbols)}
		Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
	})
	return Symbols
}
