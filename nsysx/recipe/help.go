package recipe

import (
	"fmt"
	"strings"
)

// Help is the help of one recipe (`nsysx recipe NAME --help`): the usage
// line, what the recipe answers, and every option it takes with its help
// text and default.
func Help(r *Recipe) string {
	var b strings.Builder
	opts := RecipeOptions(r)
	head := "usage: nsysx recipe " + r.Name + " "
	fmt.Fprintf(&b, "%s%s\n\n", head, strings.TrimLeft(wrap(usageLine(opts), 78, strings.Repeat(" ", len(head))), " "))
	fmt.Fprintf(&b, "%s", r.Name)
	if r.DisplayName != "" {
		fmt.Fprintf(&b, ": %s", r.DisplayName)
	}
	b.WriteString("\n")
	if r.Help != "" {
		fmt.Fprintf(&b, "%s\n", wrap(r.Help, 78, ""))
	}
	b.WriteString("\noptions:\n")
	for _, op := range opts {
		if op.Hidden {
			continue
		}
		left := "  " + op.Flag
		if op.TakesValue() {
			left += " " + op.Meta
			if op.Many {
				left += " ..."
			}
		}
		h := op.Help
		if op.Key == "input" && r.Name == DiffName {
			h = "the two recipe output directories to compare: DIR1 DIR2 (the output is DIR1 - DIR2)"
		}
		if op.Default != "" {
			h += " (default " + op.Default + ")"
		}
		if op.Group != "" && op.Key != "input" {
			if ex := exclusive(opts, op); ex != "" {
				h += "; not with " + ex
			}
		}
		const col = 34
		if len(left) >= col {
			fmt.Fprintf(&b, "%s\n%s\n", left, wrap(h, 78, strings.Repeat(" ", col)))
		} else {
			fmt.Fprintf(&b, "%-*s%s\n", col, left, strings.TrimLeft(wrap(h, 78, strings.Repeat(" ", col)), " "))
		}
	}
	return b.String()
}

func usageLine(opts []*Opt) string {
	var parts []string
	for _, op := range opts {
		if op.Hidden || op.Flag == "--help" {
			continue
		}
		s := op.Flag
		if op.TakesValue() {
			s += " " + op.Meta
			if op.Many {
				s += " ..."
			}
		}
		required := op.Key == "input" || op.Key == "name"
		if !required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// exclusive lists the options of op's group other than op.
func exclusive(opts []*Opt, op *Opt) string {
	var out []string
	for _, o := range opts {
		if o != op && o.Group == op.Group {
			out = append(out, o.Flag)
		}
	}
	return strings.Join(out, ", ")
}

// wrap breaks s into lines of at most width characters, each after the
// first prefixed with indent.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(s) {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	b.WriteString(line)
	return b.String()
}

// HelpRecipes is the list of recipes (`nsysx recipe --help-recipes`), one a
// line with what it answers.
func HelpRecipes() string {
	var b strings.Builder
	b.WriteString("The following recipes are available (nsys recipe names):\n\n")
	for _, r := range List() {
		d := r.DisplayName
		if r.Help != "" {
			d += ": " + r.Help
		}
		fmt.Fprintf(&b, "  %-26s %s\n", r.Name, strings.TrimLeft(wrap(d, 100, strings.Repeat(" ", 29)), " "))
	}
	b.WriteString("\nRun `nsysx recipe NAME --help` for the options of one.\n")
	return b.String()
}
