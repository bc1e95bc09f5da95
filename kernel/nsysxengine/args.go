package nsysxengine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
)

// flagDef is one flag of a magic, in the CLI's grammar: -r X, -rX,
// --report X, --report=X; flags and positional arguments in any order;
// "--" ends the flags.
type flagDef struct {
	names    []string // "-r", "--report": the last is the canonical name
	value    bool     // takes a value
	optional bool     // the value is optional (--help-reports [NAME])
	help     string
}

// parsedArgs holds the flags seen, by canonical name, and the other words.
type parsedArgs struct {
	vals map[string][]string
	args []string
}

func (p *parsedArgs) has(name string) bool { _, ok := p.vals[name]; return ok }

func (p *parsedArgs) last(name string) string {
	v := p.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// list splits every occurrence of a list flag at commas.
func (p *parsedArgs) list(name string) []string {
	var out []string
	for _, v := range p.vals[name] {
		for _, s := range strings.Split(v, ",") {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// boolFlag reads --flag or --flag=true|false.
func (p *parsedArgs) boolFlag(name string) (bool, error) {
	v, ok := p.vals[name]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(v[len(v)-1]) {
	case "", "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, usageErr("%s takes true or false, not %q", name, v[len(v)-1])
}

func usageErr(f string, a ...any) error { return kernel.Errorf("UsageError", f, a...) }

func findFlag(defs []flagDef, name string) *flagDef {
	for i := range defs {
		for _, n := range defs[i].names {
			if n == name {
				return &defs[i]
			}
		}
	}
	return nil
}

// parseFlags parses args against defs; optionalOK says whether the word
// after a flag with an optional value is that value.
func parseFlags(args []string, defs []flagDef, optionalOK func(string) bool) (*parsedArgs, error) {
	p := &parsedArgs{vals: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.args = append(p.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.args = append(p.args, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		d := findFlag(defs, name)
		if d == nil && !hasVal && !strings.HasPrefix(a, "--") && len(a) > 2 {
			if d2 := findFlag(defs, a[:2]); d2 != nil && d2.value { // -rcuda_api_sum
				d, name, val, hasVal = d2, a[:2], a[2:], true
			}
		}
		if d == nil {
			return nil, usageErr("unknown flag %s%s", name, nsysx.Suggest(name, flagNames(defs)))
		}
		switch {
		case hasVal:
		case d.optional:
			if i+1 < len(args) && optionalOK != nil && optionalOK(args[i+1]) {
				val = args[i+1]
				i++
			}
		case d.value:
			if i+1 >= len(args) {
				return nil, usageErr("flag %s needs a value", name)
			}
			val = args[i+1]
			i++
		}
		key := d.names[len(d.names)-1]
		p.vals[key] = append(p.vals[key], val)
	}
	return p, nil
}

func flagNames(defs []flagDef) []string {
	var all []string
	for _, d := range defs {
		all = append(all, d.names...)
	}
	return all
}

func flagHelp(defs []flagDef) string {
	var b strings.Builder
	for _, d := range defs {
		n := strings.Join(d.names, ", ")
		if d.value {
			n += " VALUE"
		}
		fmt.Fprintf(&b, "  %-28s %s\n", n, d.help)
	}
	return b.String()
}

// interruptible runs f on its own goroutine and returns its results, or
// ctx's error as soon as ctx is cancelled (f then finishes in the
// background and its results are dropped). The library's reports do not
// watch a context, so this is what makes a long report interruptible.
// wg counts the goroutine until f returns, so that Close does not close
// profiles a background report still reads.
func interruptible[T any](ctx context.Context, wg *sync.WaitGroup, f func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	done := make(chan res, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var r res
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("panic: %v", p)
			}
			done <- r
		}()
		r.v, r.err = f()
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
