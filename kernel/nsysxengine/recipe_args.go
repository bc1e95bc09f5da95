package nsysxengine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// recipeParse parses a recipe's command-line options (the words after
// the recipe name). It is a local parser of the common options until the
// recipe package's own (shared with `nsysx recipe`) is in.
var recipeParse = parseRecipeOptions

// commonRecipeKeys are the option keys every recipe takes.
var commonRecipeKeys = []string{"input", "output", "force_overwrite", "mode"}

// recipeFlag is an option key as a flag: filter_time → --filter-time.
func recipeFlag(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }

// recipeFlags lists the flags recipe r takes.
func recipeFlags(r *recipe.Recipe) []string {
	var out []string
	for _, k := range commonRecipeKeys {
		out = append(out, recipeFlag(k))
	}
	for _, k := range r.Options {
		if f := recipeFlag(k); k != "input" {
			out = append(out, f)
		}
	}
	return out
}

// parseRecipeOptions parses the options a recipe declares; an option the
// recipe does not take, or a bad value, is a usage error.
func parseRecipeOptions(r *recipe.Recipe, args []string) (*recipe.Options, error) {
	o := recipe.Defaults()
	flags := recipeFlags(r)
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			return nil, recipe.Usagef("%s: unexpected argument %q (inputs go after --input)", r.Name, a)
		}
		if !contains(flags, name) {
			return nil, recipe.Usagef("%s does not take %s%s", r.Name, name, nsysx.Suggest(name, flags))
		}
		key := strings.ReplaceAll(strings.TrimPrefix(name, "--"), "-", "_")
		if key == "input" {
			if hasVal {
				o.Input = append(o.Input, val)
			}
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
				o.Input = append(o.Input, args[i])
			}
			continue
		}
		if isBoolKey(key) {
			if err := setRecipeBool(o, key); err != nil {
				return nil, err
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, recipe.Usagef("%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := setRecipeValue(o, key, val); err != nil {
			return nil, recipe.Usagef("%s %s: %v", name, val, err)
		}
	}
	return o, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func isBoolKey(key string) bool {
	switch key {
	case "force_overwrite", "csv", "disable_alignment", "cumulative", "per_gpu", "per_stream", "drop":
		return true
	}
	return false
}

func setRecipeBool(o *recipe.Options, key string) error {
	switch key {
	case "force_overwrite":
		o.ForceOverwrite = true
	case "csv":
		o.CSV = true
	case "disable_alignment":
		o.DisableAlignment = true
	case "cumulative":
		o.Cumulative = true
	case "per_gpu":
		o.PerGPU = true
	case "per_stream":
		o.PerStream = true
	case "drop":
		o.Drop = true
	}
	return nil
}

func setRecipeValue(o *recipe.Options, key, val string) error {
	num := func(dst *int) error {
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("not an integer")
		}
		*dst = n
		return nil
	}
	switch key {
	case "output":
		o.Output = val
	case "mode":
		switch val {
		case "none", "concurrent", "dask-futures":
			o.Mode = val
		default:
			return fmt.Errorf("mode is none, concurrent or dask-futures")
		}
	case "bins":
		return num(&o.Bins)
	case "rows":
		return num(&o.Rows)
	case "threshold":
		return num(&o.Threshold)
	case "chunks":
		return num(&o.Chunks)
	case "gap":
		return num(&o.Gap)
	case "name":
		o.Name = val
	case "start", "end":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return fmt.Errorf("not an integer (nanoseconds)")
		}
		if key == "start" {
			o.Start = &n
		} else {
			o.End = &n
		}
	default:
		return fmt.Errorf("not supported by the kernel yet")
	}
	return nil
}
