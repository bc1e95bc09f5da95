package main

import (
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// flagDef describes one command-line flag.
type flagDef struct {
	names    []string // "-r", "--report"
	value    bool     // takes a value
	optional bool     // value is optional (--help-reports [name])
	help     string
}

// parsed holds the flags seen (by canonical long name) and positional args.
type parsed struct {
	vals map[string][]string
	args []string
}

func (p *parsed) has(name string) bool { _, ok := p.vals[name]; return ok }

func (p *parsed) last(name string) string {
	v := p.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// list splits every occurrence of a list flag at commas.
func (p *parsed) list(name string) []string {
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

// boolFlag reads --flag, --flag=true|false.
func (p *parsed) boolFlag(name string) (bool, error) {
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

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErr(f string, a ...any) error { return &usageError{fmt.Sprintf(f, a...)} }

// parseArgs parses args against defs. Flags may come before or after
// positional arguments; "--" ends flags.
func parseArgs(cmd string, args []string, defs []flagDef, optionalOK func(string) bool) (*parsed, error) {
	p := &parsed{vals: map[string][]string{}}
	find := func(name string) *flagDef {
		for i := range defs {
			for _, n := range defs[i].names {
				if n == name {
					return &defs[i]
				}
			}
		}
		return nil
	}
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
		d := find(name)
		if d == nil && !hasVal && !strings.HasPrefix(a, "--") && len(a) > 2 {
			// -rcuda_api_sum
			if d2 := find(a[:2]); d2 != nil && d2.value {
				d, name, val, hasVal = d2, a[:2], a[2:], true
			}
		}
		if d == nil {
			var all []string
			for _, d := range defs {
				all = append(all, d.names...)
			}
			return nil, usageErr("unknown flag %s%s", name, nsysx.Suggest(name, all))
		}
		key := d.names[len(d.names)-1]
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
		p.vals[key] = append(p.vals[key], val)
	}
	return p, nil
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
