package recipe

import (
	"errors"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/nsysx"
)

// ErrHelp is returned by ParseArgs for -h/--help: the caller prints Help.
var ErrHelp = errors.New("help requested")

// ParseArgs parses a recipe's command line as nsys takes it (the words after
// `nsys recipe NAME`), plus nsysx's own options, into Options with nsys's
// defaults. Like nsys's argparse, a long option may be abbreviated to any
// unambiguous prefix (an nsys option wins a tie with one of nsysx's own, so
// that every nsys command line keeps its meaning); --opt=value and --opt
// value are both accepted. Inputs are expanded (ExpandInputs); Output stays
// as given (the writer substitutes it). Every error is a usage error
// (errors.Is(err, ErrUsage)); -h/--help gives ErrHelp.
func ParseArgs(r *Recipe, args []string) (*Options, error) {
	return ParseArgsWith(r, args, ExpandInputs)
}

// ParseArgsWith is ParseArgs with another input expansion in place of
// ExpandInputs (a runner that also reads remote filesystems).
func ParseArgsWith(r *Recipe, args []string, expand func([]string) ([]string, error)) (*Options, error) {
	o := Defaults()
	seen := map[*Opt]string{} // option → the spelling used
	opts := RecipeOptions(r)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || isNumber(a) {
			return nil, Usagef("unexpected argument %q (reports go after --input)", a)
		}
		if a == "-h" {
			return nil, ErrHelp
		}
		name, val, hasVal := strings.Cut(a, "=")
		op, err := resolve(r, opts, name)
		if err != nil {
			return nil, err
		}
		var vals []string
		switch {
		case !op.TakesValue():
			if hasVal {
				vals = []string{val}
			}
		case hasVal:
			vals = []string{val}
		case op.Many:
			for i+1 < len(args) && !looksLikeOption(args[i+1]) {
				vals = append(vals, args[i+1])
				i++
			}
			if len(vals) == 0 {
				return nil, Usagef("%s needs at least one value", op.Flag)
			}
		default:
			if i+1 >= len(args) || looksLikeOption(args[i+1]) {
				return nil, Usagef("%s needs a value (%s)", op.Flag, op.Meta)
			}
			vals = []string{args[i+1]}
			i++
		}
		if err := op.set(o, vals); err != nil {
			return nil, err
		}
		seen[op] = op.Flag
	}
	if err := checkGroups(opts, seen); err != nil {
		return nil, err
	}
	if err := finish(r, o, seen, expand); err != nil {
		return nil, err
	}
	return o, nil
}

// resolve finds the option spelled name (or a prefix of it) among opts,
// naming the recipe when it does not take it.
func resolve(r *Recipe, opts []*Opt, name string) (*Opt, error) {
	for _, op := range opts {
		if op.Flag == name {
			return op, nil
		}
	}
	var cands []*Opt
	if strings.HasPrefix(name, "--") && len(name) > 2 {
		for _, op := range opts {
			if strings.HasPrefix(op.Flag, name) {
				cands = append(cands, op)
			}
		}
	}
	if len(cands) > 1 {
		var nsys []*Opt
		for _, op := range cands {
			if op.Nsys {
				nsys = append(nsys, op)
			}
		}
		if len(nsys) == 1 {
			cands = nsys
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
	default:
		var fl []string
		for _, op := range cands {
			fl = append(fl, op.Flag)
		}
		return nil, Usagef("ambiguous option %s: could be %s", name, strings.Join(fl, ", "))
	}
	var names []string
	for _, op := range opts {
		if !op.Hidden {
			names = append(names, op.Flag)
		}
	}
	if optionByFlag(name) != nil {
		return nil, Usagef("recipe %s does not take %s%s; run nsysx recipe %s --help", r.Name, name, nsysx.Suggest(name, names), r.Name)
	}
	return nil, Usagef("unknown option %s%s; run nsysx recipe %s --help", name, nsysx.Suggest(name, names), r.Name)
}

var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(\d+|\d*\.\d+)$`) })

func isNumber(s string) bool { return numberRE().MatchString(s) }

// looksLikeOption is argparse's test: a word starting with - that is not a
// negative number and has no space.
func looksLikeOption(s string) bool {
	return strings.HasPrefix(s, "-") && s != "-" && !isNumber(s) && !strings.Contains(s, " ")
}

// checkGroups rejects two options of one mutually exclusive group.
func checkGroups(opts []*Opt, seen map[*Opt]string) error {
	groups := map[string][]string{}
	for _, op := range opts {
		if _, ok := seen[op]; ok && op.Group != "" {
			groups[op.Group] = append(groups[op.Group], op.Flag)
		}
	}
	keys := make([]string, 0, len(groups))
	for g := range groups {
		keys = append(keys, g)
	}
	sort.Strings(keys)
	for _, g := range keys {
		if fl := groups[g]; len(fl) > 1 {
			return Usagef("%s and %s cannot be used together", fl[0], fl[1])
		}
	}
	return nil
}

// finish applies the rules that span options: required ones, --start/--end
// against --filter-time (docs/recipes.md §1.1), the worker count, and the inputs and output.
func finish(r *Recipe, o *Options, seen map[*Opt]string, expand func([]string) ([]string, error)) error {
	has := func(key string) bool { _, ok := seen[OptionByKey(key)]; return ok }
	if r.HasOption("name") && !has("name") {
		return Usagef("recipe %s needs --name NAME", r.Name)
	}
	if o.Start != nil && o.End != nil && *o.Start >= *o.End {
		return Usagef("--start must be before --end (%d ≥ %d)", *o.Start, *o.End)
	}
	switch {
	case o.FilterTime != nil:
		o.Start, o.End = o.FilterTime.Start, o.FilterTime.End
	case o.Start != nil || o.End != nil:
		o.FilterTime = &TimeRange{Start: o.Start, End: o.End}
	}
	if o.Workers == 0 {
		if n, err := strconv.Atoi(os.Getenv("NSYS_CONCURRENT_MAX_WORKERS")); err == nil && n > 0 {
			o.Workers = n
		}
	}
	if o.Output != "" { // checked now; the writer substitutes it
		if _, err := ExpandOutput(o.Output); err != nil {
			return err
		}
	}
	if r.Name == DiffName {
		return finishDiffInput(o)
	}
	if len(o.Input) == 0 {
		return Usagef("recipe %s needs --input PATH...", r.Name)
	}
	in, err := expand(o.Input)
	if err != nil {
		return err
	}
	o.Input = in
	return nil
}

func finishDiffInput(o *Options) error {
	switch {
	case o.PrintCompat:
		return nil
	case len(o.Input) != 2:
		return Usagef("diff needs --input DIR1 DIR2 (two recipe output directories), got %d", len(o.Input))
	}
	for _, d := range o.Input {
		if st, err := os.Stat(d); err != nil {
			return Usagef("--input %s: no such directory", d)
		} else if !st.IsDir() {
			return Usagef("--input %s: not a directory (diff compares two recipe output directories)", d)
		}
	}
	return nil
}

func setFilterTime(o *Options, v []string) error {
	s := v[0]
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return Usagef("--filter-time %q: want [S]/[E] (nanoseconds)", s)
	}
	if strings.TrimSpace(a) == "" && strings.TrimSpace(b) == "" {
		return Usagef("--filter-time %q: give a start, an end or both", s)
	}
	tr := &TimeRange{}
	if strings.TrimSpace(a) != "" {
		f, err := nsysx.ParseTimeFilter(a + "/")
		if err != nil {
			return Usagef("--filter-time: %v", err)
		}
		tr.Start = &f.Start
	}
	if strings.TrimSpace(b) != "" {
		f, err := nsysx.ParseTimeFilter("/" + b)
		if err != nil {
			return Usagef("--filter-time: %v", err)
		}
		tr.End = &f.End
	}
	if tr.Start != nil && tr.End != nil && *tr.Start >= *tr.End {
		return Usagef("--filter-time %q: the start must be before the end", s)
	}
	o.FilterTime = tr
	return nil
}
