//go:build ignore

// gen_docs writes docs_gen.go: the doc comments of the packages given as
// directories, for inspect requests. Run by go generate.
package main

import (
	"flag"
	"log"
	"maps"
	"os"

	"github.com/nsysx/nsysx/kernel/nsysxengine/internal/docgen"
)

func main() {
	out := flag.String("o", "docs_gen.go", "output file")
	flag.Parse()
	all := map[string]string{}
	for _, dir := range flag.Args() {
		d, err := docgen.Collect(dir)
		if err != nil {
			log.Fatal(err)
		}
		maps.Copy(all, d)
	}
	src, err := docgen.Write(all, "nsysxengine", "symbolDocs", "gen_docs.go")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
