package format

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is one output format with its options, as nsys's -f NAME[:opt...] gives.
// The zero value of every option is nsys's default.
type Spec struct {
	Name string // column, table, csv, tsv, json, hdoc, htable, arrow or parquet

	NoHeader bool // nohdr: no header line (csv, tsv, column, table)
	Escape   bool // esc: tsv writes a TAB inside a value as `\t` instead of a space

	// column and table
	NoFormat  bool  // nofmt: no number reformatting or decimal alignment
	AutoLines int   // rows scanned for widths; 0 = 100 (nsys's default), <0 = all (autolines=0)
	ColMax    int   // cap on automatic widths; 0 = 100 (default), <0 = none (colmax=0)
	Widths    []int // explicit widths in column order; 0 hides a column, <0 = automatic (".")

	// hdoc
	DocTitle    string // <title> text, used when HasDocTitle (title=)
	HasDocTitle bool
	CSS         string // stylesheet URL (css=)

	Units Units

	// TimeUnit is the --timeunit override: "ns", "us", "ms" or "sec" (see
	// ParseTimeUnit) replaces the ts and dur units of Units.
	TimeUnit string

	// Locale names the locale whose digit grouping column and table use, e.g.
	// "C" or "en_US.UTF-8"; empty means the process environment (EnvLocale).
	Locale string
}

// formatInfo describes one format name.
type formatInfo struct {
	name, ext, summary string
	opts               []string // option words besides the unit options
	units              bool
}

var formats = []formatInfo{
	{"column", ".txt", "human-readable columns", []string{"nohdr", "nofmt", "nolimit", "autolines=", "colmax=", "WIDTH"}, true},
	{"table", ".txt", "human-readable columns in text boxes", []string{"nohdr", "nofmt", "nolimit", "autolines=", "colmax=", "WIDTH"}, true},
	{"csv", ".csv", "comma-separated values", []string{"nohdr"}, true},
	{"tsv", ".tsv", "tab-separated values", []string{"nohdr", "esc"}, true},
	{"json", ".json", "an array of JSON objects, one per row", nil, true},
	{"hdoc", ".html", "a complete HTML5 document holding a <table>", []string{"title=", "css="}, true},
	{"htable", ".html", "a bare HTML <table>", nil, true},
	{"arrow", ".arrow", "Apache Arrow IPC file (binary, typed columns)", nil, false},
	{"parquet", ".parquet", "Apache Parquet file (binary, typed columns)", nil, false},
}

func lookupFormat(name string) (formatInfo, bool) {
	for _, f := range formats {
		if f.name == name {
			return f, true
		}
	}
	return formatInfo{}, false
}

// Names lists the format names, nsys's seven first.
func Names() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// Ext is the file extension nsys gives a format's output (".txt" for column
// and table, ".html" for hdoc and htable), or "" for an unknown name.
func Ext(name string) string {
	f, _ := lookupFormat(name)
	return f.ext
}

// ParseSpec parses nsys's format syntax NAME[:opt[:opt...]], for example
// "column:nohdr:time=us", "csv:time=ms:mem=KiB" or "tsv:esc". Unit options
// apply in order (a later one wins) and an unknown unit name is ignored, as in
// nsys; an option word the format does not know is an error.
func ParseSpec(text string) (Spec, error) {
	parts := strings.Split(text, ":")
	s := Spec{Name: parts[0]}
	f, ok := lookupFormat(s.Name)
	if !ok {
		return s, unknownFormat(s.Name)
	}
	for _, opt := range parts[1:] {
		if err := s.apply(f, opt); err != nil {
			return s, err
		}
	}
	return s, nil
}

func unknownFormat(name string) error {
	msg := fmt.Sprintf("unknown format '%s'", name)
	if best := closest(name, Names()); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return fmt.Errorf("%s; valid: %s", msg, strings.Join(Names(), ", "))
}

// apply sets one option of format f.
func (s *Spec) apply(f formatInfo, opt string) error {
	key, val, hasVal := strings.Cut(opt, "=")
	if f.units && hasVal && s.Units.set(key, val) {
		return nil
	}
	if f.units && !hasVal && (opt == "noconv" || opt == "nohdrunit") {
		s.Units.NoConv = s.Units.NoConv || opt == "noconv"
		s.Units.NoHdrUnit = s.Units.NoHdrUnit || opt == "nohdrunit"
		return nil
	}
	if !allows(f, opt, key, hasVal) {
		return fmt.Errorf("format %s: unknown option '%s'", f.name, opt)
	}
	switch {
	case opt == "nohdr":
		s.NoHeader = true
	case opt == "esc":
		s.Escape = true
	case opt == "nofmt":
		s.NoFormat = true
	case opt == "nolimit":
		// An old option that nsys 2025.3.1 accepts and ignores.
	case key == "autolines" || key == "colmax":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("format %s: %s wants a number of 0 or more, not '%s'", f.name, key, val)
		}
		if n == 0 {
			n = -1
		}
		if key == "autolines" {
			s.AutoLines = n
		} else {
			s.ColMax = n
		}
	case key == "title":
		s.DocTitle, s.HasDocTitle = val, true
	case key == "css":
		s.CSS = val
	default: // a width or "."
		w := -1
		if opt != "." {
			w, _ = strconv.Atoi(opt)
		}
		s.Widths = append(s.Widths, w)
	}
	return nil
}

// allows reports whether opt is one of f's own option words.
func allows(f formatInfo, opt, key string, hasVal bool) bool {
	for _, o := range f.opts {
		switch {
		case o == "WIDTH" && (opt == "." || isWidth(opt)):
			return true
		case strings.HasSuffix(o, "=") && hasVal && o == key+"=":
			return true
		case o == opt:
			return true
		}
	}
	return false
}

func isWidth(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// unitKeys maps a unit option's KEY to the categories it sets; the units of
// the first one validate the value. ratio sets nothing: % is its only unit.
var unitKeys = map[string][]category{
	"time": {catTS, catDur}, "ts": {catTS}, "dur": {catDur},
	"bytes": {catMem, catThru}, "mem": {catMem}, "thru": {catThru},
	"gid": {catGID}, "addr": {catAddr}, "ratio": nil,
}

// set applies a unit option KEY=UNIT and reports whether KEY is a unit
// category. An unknown unit is ignored, as nsys does.
func (u *Units) set(key, val string) bool {
	cats, ok := unitKeys[strings.ToLower(key)]
	if !ok {
		return false
	}
	if len(cats) == 0 {
		return true
	}
	if d, ok := lookupUnit(cats[0], val); ok {
		for _, c := range cats {
			*u.field(c) = d.name
		}
	}
	return true
}

// ParseTimeUnit reads the --timeunit argument: a prefix of nsec, usec, msec or
// seconds. It returns the unit name Spec.TimeUnit takes ("ns", "us", "ms",
// "sec").
func ParseTimeUnit(arg string) (string, error) {
	for _, u := range []struct{ word, unit string }{
		{"nsec", "ns"}, {"usec", "us"}, {"msec", "ms"}, {"seconds", "sec"},
	} {
		if arg != "" && strings.HasPrefix(u.word, strings.ToLower(arg)) {
			return u.unit, nil
		}
	}
	return "", fmt.Errorf("unknown time unit '%s'; valid: nsec, usec, msec, seconds (or a prefix)", arg)
}

// units resolves the units a Write uses: Spec.Units with TimeUnit applied.
func (s Spec) units() Units {
	u := s.Units
	if d, ok := lookupUnit(catTS, s.TimeUnit); ok {
		u.TS, u.Dur = d.name, d.name
	}
	return u
}

// closest returns the candidate nearest to name (optimal string alignment
// distance, case-insensitive), or "" when none is near.
func closest(name string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(name), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
