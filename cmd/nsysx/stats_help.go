package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

func helpReports(stdout, stderr io.Writer, cmd, name string, rules bool) int {
	list := nsysx.Reports()
	if rules {
		list = nsysx.Rules()
	}
	if name == "" || name == "ALL" || name == "all" {
		kind := "reports"
		if rules {
			kind = "rules"
		}
		fmt.Fprintf(stdout, "Available %s (nsys 2022.4 names in brackets):\n\n", kind)
		for _, r := range list {
			if name == "" {
				al := ""
				if len(r.Aliases) > 0 {
					al = " [" + strings.Join(r.Aliases, ", ") + "]"
				}
				fmt.Fprintf(stdout, "  %s%s\n", r.Name, al)
			} else {
				describe(stdout, r)
			}
		}
		if name == "" {
			fmt.Fprintf(stdout, "\nRun `nsysx %s --help-%s NAME` for one, or ALL for every description.\n", cmd, kind)
		}
		return 0
	}
	r, _, err := frontend.Lookup(name, rules)
	if err != nil {
		return fail(stderr, cmd, &unknownName{err})
	}
	describe(stdout, r)
	return 0
}

func describe(w io.Writer, r *nsysx.Report) {
	fmt.Fprintf(w, "%s -- %s\n", r.Name, r.Title)
	if len(r.Aliases) > 0 {
		fmt.Fprintf(w, "  also: %s\n", strings.Join(r.Aliases, ", "))
	}
	fmt.Fprintf(w, "  %s\n", r.Help)
	opts := append([]nsysx.Option(nil), r.Options...)
	sort.SliceStable(opts, func(i, j int) bool { return false })
	for _, op := range opts {
		n := op.Name
		if !op.Flag {
			n += "=VALUE"
			if op.Default != "" {
				n += " (default " + op.Default + ")"
			}
		}
		fmt.Fprintf(w, "  :%-24s %s\n", n, op.Help)
	}
	fmt.Fprintf(w, "  :start=NS :end=NS :nvtx=RANGE[@DOMAIN]  restrict to a time window or NVTX range\n\n")
}

func helpFormats(stdout, stderr io.Writer, cmd, name string) int {
	if name == "" || name == "ALL" || name == "all" {
		for _, n := range format.Names() {
			if name == "" {
				fmt.Fprintf(stdout, "  %s\n", n)
			} else {
				fmt.Fprintf(stdout, "%s\n\n", format.Help(n))
			}
		}
		return 0
	}
	if _, err := format.ParseSpec(name); err != nil {
		return fail(stderr, cmd, &unknownName{err})
	}
	fmt.Fprintln(stdout, format.Help(strings.SplitN(name, ":", 2)[0]))
	return 0
}
