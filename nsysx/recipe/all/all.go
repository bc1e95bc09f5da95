// Package all registers every recipe nsysx ships: a program that runs
// recipes by name (the CLI, the Jupyter kernel, nsysx-beam) imports it for
// its side effect,
//
//	import _ "github.com/nsysx/nsysx/nsysx/recipe/all"
//
// so that recipe.Lookup, recipe.List and the help texts know them. The
// recipe packages import the runner (package recipe), never the reverse.
package all

import (
	_ "github.com/nsysx/nsysx/nsysx/recipe/recipes" // nsys's recipes
)
