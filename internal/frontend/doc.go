// Package frontend is the glue between the command line (cmd/nsysx,
// nsysx-beam) or the kernel's magics and the library, so that the same words
// mean the same run in both:
//
//   - flags.go, sets.go, filter.go, compare.go, advise.go: command lines in
//     nsys's flag grammar (-r X, -rX, --report X, --report=X, boolean flags
//     with an optional =true|false, flags whose value is optional, flags and
//     positional arguments in any order, "--" to end the flags), the flag
//     sets of each command and what they become (filters, compare and advise
//     options); Parse.
//   - plan.go, output.go: the words of `nsysx stats` / `nsysx analyze` and
//     %nsys stats / analyze as one run plan (the reports or rules to run,
//     each with its options, format and output); Build.
//   - recipe.go: the recipe command line that `nsysx recipe` and `nsysx-beam
//     recipe` share, and the requests that only print (--help-recipes, -h,
//     NAME --help, --print-compat-recipes); ParseRecipe.
package frontend
