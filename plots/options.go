package plots

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Options tune a chart. The zero value gives every chart's defaults.
type Options struct {
	Top    int    // --top N: bars shown before the rest is summed into "other" (default 15)
	Range  string // --range NAME: an NVTX range name[@domain][/index]: the window (nvtx-timeline, gpu-util, nccl) or the range whose instances iterations draws
	Match  string // --match REGEX: iterations: the NVTX range names to draw (default: "iteration N", "step N" ...)
	Start  int64  // --start T: window start, ns from the session start (units accepted: 1.5s, 200ms)
	End    int64  // --end T: window end (0: the end of the profile)
	Kernel string // --kernel NAME: kernel-hist: the kernel (full or shortened name, or a unique part of it)
	Bins   int    // --bins N: bins of gpu-util, nccl, kernel-hist, iterations' histogram
	Device int    // --device N: only GPU N (with OneDevice)
	By     string // --by: memops: time or size (default both); compare: kernels or nvtx
	Width  float64
	Height float64 // --width/--height: size in inches (default: the chart's)

	OneDevice bool // Device was given
}

// ErrUsage is matched (errors.Is) by errors in how a chart was asked for:
// unknown chart or option, bad option value, wrong number of profiles.
var ErrUsage = errors.New("usage error")

type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == ErrUsage }

func usagef(f string, a ...any) error { return &usageError{fmt.Sprintf(f, a...)} }

// optionDefs lists the options: flag, value placeholder, help.
var optionDefs = []struct{ flag, value, help string }{
	{"--top", "N", "show the N largest items, the rest summed as \"other\" (default 15); stacks: levels drawn (default 40)"},
	{"--range", "NAME", "NVTX range name[@domain][/index]: the window (e.g. \"iteration 12\"); iterations, idle: the range to draw"},
	{"--match", "REGEX", "iterations, idle: NVTX range names to draw (default: iteration|iter|step|batch followed by a number)"},
	{"--start", "T", "window start, ns since the session start (or with a unit: 1.5s, 200ms)"},
	{"--end", "T", "window end (default: the end of the profile)"},
	{"--kernel", "NAME", "kernel-hist: the kernel, by full or shortened name or a unique part of it (default: the top kernel)"},
	{"--bins", "N", "number of time or duration bins"},
	{"--device", "N", "only GPU N"},
	{"--by", "WHAT", "memops: time or size (default both); compare: kernels or nvtx (default kernels)"},
	{"--width", "IN", "chart width in inches"},
	{"--height", "IN", "chart height in inches"},
}

// OptionHelp describes the options, one per line.
func OptionHelp() string {
	var b strings.Builder
	for _, d := range optionDefs {
		fmt.Fprintf(&b, "  %-16s %s\n", d.flag+" "+d.value, d.help)
	}
	return b.String()
}

// ParseOptions parses option words (`--top 10`, `--range=iteration 12`)
// and returns the options and the other words (files or profile names).
// Errors match ErrUsage.
func ParseOptions(words []string) (*Options, []string, error) {
	o := &Options{}
	_, rest, err := o.parse(words)
	return o, rest, err
}

// parse fills o from words; it returns the flags seen and the other words.
func (o *Options) parse(words []string) (seen, rest []string, err error) {
	var flags []string
	for _, d := range optionDefs {
		flags = append(flags, d.flag)
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			rest = append(rest, words[i+1:]...)
			break
		}
		if !strings.HasPrefix(w, "--") {
			rest = append(rest, w)
			continue
		}
		name, val, hasVal := strings.Cut(w, "=")
		known := false
		for _, f := range flags {
			known = known || f == name
		}
		if !known {
			return nil, nil, usagef("unknown option %s%s", name, nsysx.Suggest(name, flags))
		}
		if !hasVal {
			if i+1 >= len(words) {
				return nil, nil, usagef("option %s needs a value", name)
			}
			i++
			val = words[i]
		}
		if err := o.set(name, val); err != nil {
			return nil, nil, err
		}
		seen = append(seen, name)
	}
	return seen, rest, nil
}

func (o *Options) set(name, val string) error {
	var err error
	switch name {
	case "--top":
		o.Top, err = intOpt(name, val, 1, 1000)
	case "--bins":
		o.Bins, err = intOpt(name, val, 1, 10000)
	case "--device":
		o.Device, err = intOpt(name, val, 0, math.MaxInt32)
		o.OneDevice = true
	case "--range":
		if val == "" {
			return usagef("--range needs an NVTX range name")
		}
		o.Range = val
	case "--match":
		if _, err := regexp.Compile(val); err != nil {
			return usagef("--match: %v", err)
		}
		o.Match = val
	case "--kernel":
		o.Kernel = val
	case "--by":
		switch val {
		case "time", "size", "kernels", "nvtx":
			o.By = val
		default:
			return usagef("--by takes time or size (memops), kernels or nvtx (compare), not %q", val)
		}
	case "--start", "--end":
		var t int64
		t, err = timeOpt(name, val)
		if name == "--start" {
			o.Start = t
		} else {
			o.End = t
		}
	case "--width", "--height":
		f, perr := strconv.ParseFloat(val, 64)
		if perr != nil || f < 2 || f > 60 {
			return usagef("%s takes a size in inches between 2 and 60, not %q", name, val)
		}
		if name == "--width" {
			o.Width = f
		} else {
			o.Height = f
		}
	}
	return err
}

func intOpt(name, val string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil || n < lo || n > hi {
		return 0, usagef("%s takes an integer from %d to %d, not %q", name, lo, hi, val)
	}
	return n, nil
}

// timeOpt parses a time in ns, or with a unit (1.5s, 200ms, 3us).
func timeOpt(name, val string) (int64, error) {
	f, err := nsysx.ParseTimeFilter(val + "/")
	if err != nil || f.Start < 0 {
		return 0, usagef("%s takes a time in ns or with a unit (1.5s, 200ms), not %q", name, val)
	}
	return f.Start, nil
}

// Args renders the options as words ParseOptions reads back.
func (o *Options) Args() []string {
	var a []string
	add := func(flag, v string) { a = append(a, flag, v) }
	if o.Top > 0 {
		add("--top", strconv.Itoa(o.Top))
	}
	if o.Range != "" {
		add("--range", o.Range)
	}
	if o.Match != "" {
		add("--match", o.Match)
	}
	if o.Start != 0 {
		add("--start", strconv.FormatInt(o.Start, 10))
	}
	if o.End != 0 {
		add("--end", strconv.FormatInt(o.End, 10))
	}
	if o.Kernel != "" {
		add("--kernel", o.Kernel)
	}
	if o.Bins > 0 {
		add("--bins", strconv.Itoa(o.Bins))
	}
	if o.OneDevice {
		add("--device", strconv.Itoa(o.Device))
	}
	if o.By != "" {
		add("--by", o.By)
	}
	if o.Width > 0 {
		add("--width", strconv.FormatFloat(o.Width, 'g', -1, 64))
	}
	if o.Height > 0 {
		add("--height", strconv.FormatFloat(o.Height, 'g', -1, 64))
	}
	return a
}

func (o *Options) top(def int) int {
	if o == nil || o.Top <= 0 {
		return def
	}
	return o.Top
}

func (o *Options) bins(def int) int {
	if o == nil || o.Bins <= 0 {
		return def
	}
	return o.Bins
}
