package nsysxengine

import (
	"github.com/nsysx/nsysx/internal/frontend"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// prefixed returns the candidates that start with word, sorted, unique.
func prefixed(cands []string, word string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// reportNames lists report (or rule) names and their 2022.4 aliases.
func reportNames(rules bool) []string {
	list := nsysx.Reports()
	if rules {
		list = nsysx.Rules()
	}
	var out []string
	for _, r := range list {
		out = append(out, r.Name)
		out = append(out, r.Aliases...)
	}
	return out
}

// completeSpec completes "name[:opt...]" report specs: names, then the
// options of the named report after a colon.
func completeSpec(word string, rules bool) ([]string, int) {
	name, _, hasOpt := strings.Cut(word, ":")
	if !hasOpt {
		return prefixed(reportNames(rules), word), len(word)
	}
	opt := word[strings.LastIndexByte(word, ':')+1:]
	r, err := nsysx.LookupReport(name)
	if rules {
		r, err = nsysx.LookupRule(name)
	}
	if err != nil {
		return nil, 0
	}
	var opts []string
	for _, o := range r.Options {
		if o.Flag {
			opts = append(opts, o.Name)
		} else {
			opts = append(opts, o.Name+"=")
		}
	}
	opts = append(opts, "start=", "end=", "nvtx=")
	return prefixed(opts, opt), len(opt)
}

// completeList completes the last item of a comma-separated list.
func completeList(word string, item func(string) ([]string, int)) ([]string, int) {
	i := strings.LastIndexByte(word, ',')
	return item(word[i+1:])
}

// profileExts are what completion offers as profile files.
var profileExts = []string{".sqlite", ".sqlite.gz", ".nsys-rep", ".qdrep", ".arrows"}

// completeFiles lists directories and profile files starting with word.
func completeFiles(word string, any bool) []string {
	dir, base := filepath.Split(word)
	read := dir
	if read == "" {
		read = "."
	}
	ents, err := os.ReadDir(read)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		ok := any || e.IsDir()
		for _, x := range profileExts {
			ok = ok || strings.HasSuffix(n, x)
		}
		if !ok {
			continue
		}
		if e.IsDir() && !strings.HasSuffix(n, "_pqtdir") && !strings.HasSuffix(n, "_arwdir") {
			n += "/"
		}
		out = append(out, dir+n)
		if len(out) >= 500 {
			break
		}
	}
	return out
}

// completeInput completes a FILE|NAME argument.
func (e *Engine) completeInput(word string) []string {
	cands := append(completeFiles(word, false), e.profiles.names()...)
	if word != "" && strings.HasPrefix("sample", word) {
		cands = append(cands, "sample")
	}
	return prefixed(cands, word)
}

// completeNsys completes %nsys: subcommands, flags, report, rule and
// format names after -r and -f, and inputs.
func (e *Engine) completeNsys(c kernel.MagicCursor) ([]string, int) {
	w := c.Word
	if len(c.Args) == 0 {
		return prefixed([]string{"stats", "analyze", "export", "recipe", "compare", "advise", "critical-path", "timeline", "profile"}, w), len(w)
	}
	if c.Args[0] == "recipe" {
		return e.completeRecipe(c.Args[1:], w)
	}
	defs, rules := statsFlags, false
	switch c.Args[0] {
	case "analyze":
		defs, rules = analyzeFlags, true
	case "export":
		defs = exportFlags
	case "compare":
		defs = compareFlags
	case "advise":
		defs = adviseFlags
	case "critical-path":
		defs = criticalPathFlags
	case "timeline":
		defs = timelineFlags
	}
	flag, val := "", w
	if strings.HasPrefix(w, "-") {
		name, v, ok := strings.Cut(w, "=")
		if !ok {
			return prefixed(flagNames(defs), w), len(w)
		}
		flag, val = name, v
	} else if len(c.Args) > 1 {
		if d := frontend.Find(defs, c.Args[len(c.Args)-1]); d != nil && (d.Value || d.Optional) {
			flag = c.Args[len(c.Args)-1]
		}
	}
	d := frontend.Find(defs, flag)
	if d == nil {
		return e.completeInput(w), len(w)
	}
	switch key := d.Names[len(d.Names)-1]; key {
	case "--report", "--rule":
		return completeList(val, func(s string) ([]string, int) { return completeSpec(s, rules) })
	case "--help-reports", "--help-rules":
		return prefixed(reportNames(rules), val), len(val)
	case "--format", "--help-formats":
		return completeList(val, func(s string) ([]string, int) { return prefixed(format.Names(), s), len(s) })
	case "--timeunit":
		return prefixed([]string{"nsec", "usec", "msec", "seconds"}, val), len(val)
	case "--type":
		return prefixed([]string{"parquet", "arrow", "perfetto", "pprof"}, val), len(val)
	case "--output":
		return prefixed(completeFiles(val, true), val), len(val)
	}
	return nil, 0
}

// completeOpen completes %open FILE [as NAME].
func (e *Engine) completeOpen(c kernel.MagicCursor) ([]string, int) {
	switch len(c.Args) {
	case 0:
		return prefixed(append(completeFiles(c.Word, false), "sample"), c.Word), len(c.Word)
	case 1:
		return prefixed([]string{"as"}, c.Word), len(c.Word)
	case 2:
		return prefixed([]string{VarName(c.Args[0])}, c.Word), len(c.Word)
	}
	return nil, 0
}

var sqlKeywords = []string{"SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN",
	"LEFT", "INNER", "ON", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "DISTINCT", "COUNT", "SUM", "AVG",
	"MIN", "MAX", "WITH", "UNION", "ALL", "CASE", "WHEN", "THEN", "ELSE", "END", "DESC", "ASC", "CAST", "BETWEEN"}

// completeSQL completes the %%sql line (files, names) and body: tables,
// the columns of the tables the query names (or of TABLE. and ALIAS.),
// and keywords.
func (e *Engine) completeSQL(c kernel.MagicCursor) ([]string, int) {
	if !c.InBody {
		if len(c.Args) == 0 {
			return append(e.completeInput(c.Word), prefixed([]string{"as"}, c.Word)...), len(c.Word)
		}
		return prefixed([]string{"as"}, c.Word), len(c.Word)
	}
	var p *nsysx.Profile
	if args, _ := kernel.SplitArgs(c.Line); len(args) > 0 && args[0] != "as" {
		p, _ = e.resolve(e.life, args[0]) // a completion is no cell's: the engine's context
	} else {
		p = e.profiles.lastOpened()
	}
	if p == nil {
		return prefixed(sqlKeywords, strings.ToUpper(c.Word)), len(c.Word)
	}
	tables := p.Tables()
	before := strings.TrimSuffix(c.Body, c.Word)
	if strings.HasSuffix(before, ".") {
		q := before[:len(before)-1]
		i := len(q)
		for i > 0 && isIdent(q[i-1]) {
			i--
		}
		if t := sqlTable(p, q[i:], c.Full); t != nil {
			return prefixed(t.Columns, c.Word), len(c.Word)
		}
		return nil, 0
	}
	cands := append([]string(nil), tables...)
	for _, t := range tables {
		if strings.Contains(strings.ToUpper(c.Full), strings.ToUpper(t)) {
			cands = append(cands, p.Schema(t).Columns...)
		}
	}
	for _, k := range sqlKeywords {
		if strings.HasPrefix(k, strings.ToUpper(c.Word)) && c.Word != "" {
			cands = append(cands, k)
			if c.Word == strings.ToLower(c.Word) {
				cands = append(cands, strings.ToLower(k))
			}
		}
	}
	return prefixed(cands, c.Word), len(c.Word)
}

// sqlTable finds the table named q in the query, directly or as an alias
// ("FROM CUPTI_ACTIVITY_KIND_KERNEL AS k").
func sqlTable(p *nsysx.Profile, q, query string) *nsysx.TableSchema {
	if q == "" {
		return nil
	}
	if s := p.Schema(q); s != nil {
		return s
	}
	re := regexp.MustCompile(`(?i)\b(\w+)\s+(?:AS\s+)?` + regexp.QuoteMeta(q) + `\b`)
	for _, m := range re.FindAllStringSubmatch(query, -1) {
		if s := p.Schema(m[1]); s != nil {
			return s
		}
	}
	return nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// globalProfile returns the *nsysx.Profile a cell variable holds.
func (e *Engine) globalProfile(name string) *nsysx.Profile {
	if v, ok := e.Global(name); ok && v.CanInterface() {
		if p, ok := v.Interface().(*nsysx.Profile); ok {
			return p
		}
	}
	return nil
}

// globalResult returns the *nsysx.Result a cell variable holds.
func (e *Engine) globalResult(name string) *nsysx.Result {
	if v, ok := e.Global(name); ok && v.CanInterface() {
		if r, ok := v.Interface().(*nsysx.Result); ok {
			return r
		}
	}
	return nil
}

// stringCallRe matches the call before an open string literal: X.Stats(",
// or X.Stats(ctx, " after a context argument.
var stringCallRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:(\w+)\.)?(\w+)\(\s*(?:\w+\s*,\s*)?$`) })

// openString returns where the string literal holding the cursor starts
// (after its quote), or -1.
func openString(code string, cursor int) int {
	line := strings.LastIndexByte(code[:cursor], '\n') + 1
	start := -1
	for i := line; i < cursor; i++ {
		switch c := code[i]; {
		case start >= 0 && c == '\\':
			i++
		case c == '"':
			if start >= 0 {
				start = -1
			} else {
				start = i + 1
			}
		case start < 0 && c == '/' && i+1 < cursor && code[i+1] == '/':
			return -1
		}
	}
	return start
}

// Complete implements kernel.Engine: inside Stats("..."), Analyze("..."),
// Load("...") and similar strings it completes report, rule, format,
// table and column names; elsewhere it defers to the Go engine (which
// completes nsysx.Op to Open, OpenSample and r. to the methods of r).
func (e *Engine) Complete(code string, cursor int) kernel.Completion {
	cursor = max(0, min(cursor, len(code)))
	if s := openString(code, cursor); s >= 0 {
		if m := stringCallRe().FindStringSubmatch(code[:s-1]); m != nil {
			word := code[s:cursor]
			matches, n := e.completeArg(m[1], m[2], word)
			if matches != nil {
				return kernel.Completion{Matches: matches, Start: cursor - n, End: cursor}
			}
		}
		return kernel.Completion{Start: cursor, End: cursor}
	}
	return e.Engine.Complete(code, cursor)
}

// completeArg completes the string argument of recv.fn(.
func (e *Engine) completeArg(recv, fn, word string) ([]string, int) {
	switch fn {
	case "Stats", "LookupReport":
		return completeSpec(word, false)
	case "Analyze", "LookupRule":
		return completeSpec(word, true)
	case "Run":
		a, n := completeSpec(word, false)
		b, _ := completeSpec(word, true)
		return append(a, b...), n
	case "ParseSpec", "Help":
		if recv == "format" {
			return prefixed(format.Names(), word), len(word)
		}
		return completeSpec(word, false)
	case "Load", "Schema", "HasTable", "HasColumn", "Open", "Draw":
		if p := e.globalProfile(recv); p != nil {
			return prefixed(p.Tables(), word), len(word)
		}
		if fn == "Open" {
			return prefixed(completeFiles(word, false), word), len(word)
		}
	case "Col":
		if r := e.globalResult(recv); r != nil {
			var labels []string
			for _, c := range r.Cols {
				labels = append(labels, c.Label())
			}
			return prefixed(labels, word), len(word)
		}
	}
	return nil, 0
}

// typeKey names v's type as the doc keys do: "nsysx.Profile".
func typeKey(v reflect.Value) string {
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	return strings.TrimLeft(v.Type().String(), "*[]")
}
