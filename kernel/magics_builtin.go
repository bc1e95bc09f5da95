package kernel

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// registerBuiltins adds %help, %cd, %env and %timeit (and %%timeit).
func registerBuiltins(m *Magics, e Engine) {
	for _, mg := range []Magic{
		{Name: "help", Usage: "%help [NAME]", Help: "List the magics, or show the help of one.",
			Run: func(_ context.Context, args []string, _ string, out Output) error {
				return magicHelp(m, args, out.Stdout())
			}},
		{Name: "cd", Usage: "%cd [DIR]", Help: "Change the kernel's working directory (default: home) and print it.",
			Run: magicCd},
		{Name: "env", Usage: "%env [NAME[=VALUE]]",
			Help: "Without arguments list the environment; with NAME print its value; with NAME=VALUE set it.",
			Run:  magicEnv},
		{Name: "timeit", Usage: "%timeit [-n N] [-r R] STATEMENT", Flags: []string{"-n", "-r"},
			Help: "Run a Go statement N times per round, R rounds, and report mean ± standard deviation per run.\n" +
				"N is chosen so that a round takes at least 0.2s unless given; R defaults to 7.",
			Raw: true,
			Run: func(ctx context.Context, args []string, _ string, out Output) error {
				return magicTimeit(ctx, e, args, "", out)
			}},
		{Name: "timeit", Cell: true, Usage: "%%timeit [-n N] [-r R]", Flags: []string{"-n", "-r"},
			Help: "Time the body of the cell like %timeit.",
			Run: func(ctx context.Context, args []string, body string, out Output) error {
				return magicTimeit(ctx, e, args, body, out)
			}},
	} {
		if err := m.Register(mg); err != nil {
			panic(err) // built-in names are valid and unique
		}
	}
}

func magicHelp(m *Magics, args []string, w io.Writer) error {
	if len(args) > 0 {
		name := strings.TrimLeft(args[0], "%")
		cell := strings.HasPrefix(args[0], "%%")
		found := false
		for _, mg := range m.List() {
			if mg.Name == name && (mg.Cell == cell || !strings.HasPrefix(args[0], "%")) {
				fmt.Fprintf(w, "%s\n    %s\n", mg.Usage, strings.ReplaceAll(mg.Help, "\n", "\n    "))
				found = true
			}
		}
		if !found {
			return Errorf("UsageError", "no magic named %s (try %%help)", args[0])
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	io.WriteString(tw, "Magics (%line and %%cell):\n")
	for _, mg := range m.List() {
		usage := mg.Usage
		if usage == "" {
			usage = prefix(mg.Cell) + mg.Name
		}
		help, _, _ := strings.Cut(mg.Help, "\n")
		fmt.Fprintf(tw, "  %s\t%s\n", usage, help)
	}
	return tw.Flush()
}

func magicCd(_ context.Context, args []string, _ string, out Output) error {
	if len(args) > 1 {
		return Errorf("UsageError", "usage: %%cd [DIR]")
	}
	dir := ""
	if len(args) == 1 {
		dir = args[0]
	}
	if dir == "" || dir == "~" {
		h, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		dir = h
	} else if strings.HasPrefix(dir, "~/") {
		h, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		dir = h + dir[1:]
	}
	if err := os.Chdir(dir); err != nil {
		return Errorf("OSError", "%v", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	fmt.Fprintln(out.Stdout(), wd)
	return nil
}

func magicEnv(_ context.Context, args []string, _ string, out Output) error {
	w := out.Stdout()
	switch len(args) {
	case 0:
		env := os.Environ()
		sort.Strings(env)
		for _, kv := range env {
			fmt.Fprintln(w, kv)
		}
		return nil
	case 1:
		if name, value, ok := strings.Cut(args[0], "="); ok {
			if name == "" {
				return Errorf("UsageError", "usage: %%env NAME=VALUE")
			}
			if err := os.Setenv(name, value); err != nil {
				return Errorf("OSError", "%v", err)
			}
			fmt.Fprintf(w, "env: %s=%s\n", name, value)
			return nil
		}
		v, ok := os.LookupEnv(args[0])
		if !ok {
			return Errorf("KeyError", "environment variable %s is not set", args[0])
		}
		fmt.Fprintln(w, v)
		return nil
	}
	return Errorf("UsageError", "usage: %%env [NAME[=VALUE]]")
}

// timeitFlags splits %timeit's raw text into its leading -n/-r flags (with
// their values) and the Go statement after them, which keeps its quotes.
func timeitFlags(text string) (flags []string, code string) {
	rest := strings.TrimSpace(text)
	for {
		w, after, _ := strings.Cut(rest, " ")
		if w == "--" {
			return flags, strings.TrimSpace(after)
		}
		if !strings.HasPrefix(w, "-n") && !strings.HasPrefix(w, "-r") {
			return flags, rest
		}
		flags = append(flags, w)
		rest = strings.TrimSpace(after)
		if len(w) == 2 { // the value is the next word
			v, after2, _ := strings.Cut(rest, " ")
			flags, rest = append(flags, v), strings.TrimSpace(after2)
		}
	}
}

func magicTimeit(ctx context.Context, e Engine, args []string, body string, out Output) error {
	fs := flag.NewFlagSet("timeit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 0, "runs per round")
	r := fs.Int("r", 7, "rounds")
	flags, code := args, ""
	if body == "" && len(args) == 1 { // %timeit: the raw text, flags first
		flags, code = timeitFlags(args[0])
	}
	if err := fs.Parse(flags); err != nil {
		return Errorf("UsageError", "%%timeit: %v", err)
	}
	if body == "" && len(args) != 1 {
		code = strings.Join(fs.Args(), " ")
	}
	if body != "" {
		code = body
	}
	if strings.TrimSpace(code) == "" || *r < 1 || *n < 0 {
		return Errorf("UsageError", "usage: %%timeit [-n N] [-r R] STATEMENT")
	}
	run := func(ctx context.Context) error { return e.Execute(ctx, code, discardOutput{}) }
	if p, ok := e.(Preparer); ok {
		var err error
		if run, err = p.Prepare(ctx, code); err != nil {
			return err
		}
	}
	per, loops, err := timeRuns(ctx, run, *n, *r)
	if err != nil {
		return err
	}
	mean, std := meanStd(per)
	fmt.Fprintf(out.Stdout(), "%s ± %s per loop (mean ± std. dev. of %d runs, %d loops each)\n",
		fmtDuration(mean), fmtDuration(std), *r, loops)
	return nil
}

// timeRuns times rounds of n runs and returns the nanoseconds per run of
// each round and n; n 0 is chosen first, a power of ten that makes a
// round last at least 0.2 s.
func timeRuns(ctx context.Context, run func(context.Context) error, n, rounds int) ([]float64, int, error) {
	loops := func(k int) (time.Duration, error) {
		start := time.Now()
		for i := 0; i < k; i++ {
			if err := run(ctx); err != nil {
				return 0, err
			}
		}
		return time.Since(start), nil
	}
	if n == 0 {
		for n = 1; ; n *= 10 {
			d, err := loops(n)
			if err != nil {
				return nil, 0, err
			}
			if d >= 200*time.Millisecond || n >= 1e9 {
				break
			}
		}
	}
	per := make([]float64, rounds)
	for i := range per {
		d, err := loops(n)
		if err != nil {
			return nil, 0, err
		}
		per[i] = float64(d) / float64(n)
	}
	return per, n, nil
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)-1))
}

// fmtDuration prints nanoseconds with three significant digits and the
// unit IPython uses.
func fmtDuration(ns float64) string {
	units := []struct {
		div  float64
		name string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if ns >= u.div || u.div == 1 {
			return fmt.Sprintf("%.3g %s", ns/u.div, u.name)
		}
	}
	return ""
}
