package frontend

import (
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Flag describes one flag. The last name is the canonical one that Parsed
// is keyed by.
type Flag struct {
	Names    []string // "-r", "--report"
	Value    bool     // takes a value
	Optional bool     // the value is optional (--help-reports [NAME])
	Help     string
}

// Parsed holds the flags seen, by canonical name, and the positional words.
type Parsed struct {
	vals map[string][]string
	Args []string
}

// Has reports whether a flag was given.
func (p *Parsed) Has(name string) bool { _, ok := p.vals[name]; return ok }

// Last is the value of the last occurrence of a flag, or "".
func (p *Parsed) Last(name string) string {
	v := p.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// List splits every occurrence of a list flag at commas.
func (p *Parsed) List(name string) []string {
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

// Bool reads --flag, --flag=true|false.
func (p *Parsed) Bool(name string) (bool, error) {
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
	return false, Usagef("%s takes true or false, not %q", name, v[len(v)-1])
}

// UsageError is a mistake on the command line.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(f string, a ...any) error { return &UsageError{fmt.Sprintf(f, a...)} }

// Find returns the flag spelled name, or nil.
func Find(defs []Flag, name string) *Flag { return find(defs, name) }

func find(defs []Flag, name string) *Flag {
	for i := range defs {
		for _, n := range defs[i].Names {
			if n == name {
				return &defs[i]
			}
		}
	}
	return nil
}

// Parse parses args against defs; optionalOK says whether the word after a
// flag with an optional value is that value. Errors are *UsageError and name
// the closest valid flag.
func Parse(args []string, defs []Flag, optionalOK func(string) bool) (*Parsed, error) {
	p := &Parsed{vals: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.Args = append(p.Args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.Args = append(p.Args, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		d := find(defs, name)
		if d == nil && !hasVal && !strings.HasPrefix(a, "--") && len(a) > 2 {
			if d2 := find(defs, a[:2]); d2 != nil && d2.Value { // -rcuda_api_sum
				d, name, val, hasVal = d2, a[:2], a[2:], true
			}
		}
		if d == nil {
			return nil, Usagef("unknown flag %s%s", name, nsysx.Suggest(name, Names(defs)))
		}
		switch {
		case hasVal:
		case d.Optional:
			if i+1 < len(args) && optionalOK != nil && optionalOK(args[i+1]) {
				val = args[i+1]
				i++
			}
		case d.Value:
			if i+1 >= len(args) {
				return nil, Usagef("flag %s needs a value", name)
			}
			val = args[i+1]
			i++
		}
		key := d.Names[len(d.Names)-1]
		p.vals[key] = append(p.vals[key], val)
	}
	return p, nil
}

// Names lists every spelling of every flag.
func Names(defs []Flag) []string {
	var all []string
	for _, d := range defs {
		all = append(all, d.Names...)
	}
	return all
}

// Help lists the flags, one a line.
func Help(defs []Flag) string {
	var b strings.Builder
	for _, d := range defs {
		n := strings.Join(d.Names, ", ")
		if d.Value {
			n += " VALUE"
		}
		fmt.Fprintf(&b, "  %-28s %s\n", n, d.Help)
	}
	return b.String()
}
