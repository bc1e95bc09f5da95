package recipe

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ExpandInputs turns --input arguments into the list of reports, as nsys
// does (docs/recipes.md §1.1), for nsysx's input kinds too:
//   - a file is kept as it is (.nsys-rep, .qdrep, .sqlite; any other file is
//     tried as a SQLite export when it is opened);
//   - an export directory (*_pqtdir, *_arwdir, or one holding .parquet or
//     .arrow tables and no reports) is one report;
//   - any other directory expands to its reports, sorted by path: *.nsys-rep,
//     *.qdrep, *.sqlite, *.sqlite.gz, *.sqlite.zst, *_pqtdir and *_arwdir. A
//     stem present both as a report and as its exports counts once (the
//     report, else the .sqlite, else the compressed one, else the _pqtdir,
//     else the _arwdir);
//   - DIR:n keeps the first n reports of DIR.
//
// The lists are concatenated in argument order; duplicates given explicitly
// are kept. A path that does not exist, :n on a file and a directory without
// reports are usage errors.
func ExpandInputs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		path, limit, err := splitLimit(a)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, Usagef("--input %s: no such file or directory", path)
		}
		if !st.IsDir() || isExportDir(path) {
			if limit >= 0 {
				return nil, Usagef("--input %s: :n applies only to a directory of reports", a)
			}
			out = append(out, path)
			continue
		}
		reps, err := listReports(path)
		if err != nil {
			return nil, err
		}
		if len(reps) == 0 {
			return nil, Usagef("--input %s: no reports in this directory (.nsys-rep, .qdrep, .sqlite, .sqlite.gz, .sqlite.zst, *_pqtdir, *_arwdir)", path)
		}
		if limit >= 0 && limit < len(reps) {
			reps = reps[:limit]
		}
		out = append(out, reps...)
	}
	return out, nil
}

var limitRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*):(\d+)$`) })

// splitLimit splits DIR:n; limit is -1 without one. A path that exists as
// written (a file name with a colon) is never split.
func splitLimit(a string) (string, int, error) {
	m := limitRE().FindStringSubmatch(a)
	if m == nil {
		return a, -1, nil
	}
	if _, err := os.Stat(a); err == nil {
		return a, -1, nil
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 1 {
		return "", 0, Usagef("--input %s: the count after : must be a positive integer", a)
	}
	return m[1], n, nil
}

// Input kinds in order of preference for one stem: a compressed SQLite
// export (what testdata/profiles ships; nsysx.Open decompresses it once into
// its cache) after the plain one.
var kindSuffixes = []string{".nsys-rep", ".qdrep", ".sqlite", ".sqlite.gz", ".sqlite.zst", "_pqtdir", "_arwdir"}

func inputKind(name string, dir bool) int {
	l := strings.ToLower(name)
	for i, s := range kindSuffixes {
		if strings.HasSuffix(l, s) && len(l) > len(s) && dir == strings.HasPrefix(s, "_") {
			if strings.HasSuffix(l, ".tmp-export.sqlite") {
				return -1
			}
			return i
		}
	}
	return -1
}

// reportPref ranks the kinds: .nsys-rep and .qdrep are equal.
func reportPref(kind int) int { return max(kind, 1) }

func listReports(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, Usagef("--input %s: %v", dir, err)
	}
	best := map[string]int{}      // stem → kind
	path := map[string][]string{} // stem → paths of the best kind
	for _, e := range ents {
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
				isDir = st.IsDir()
			}
		}
		k := inputKind(e.Name(), isDir)
		if k < 0 || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		st := Stem(p)
		b, ok := best[st]
		switch {
		case !ok || reportPref(k) < reportPref(b):
			best[st], path[st] = k, []string{p}
		case reportPref(k) == reportPref(b):
			path[st] = append(path[st], p) // a.nsys-rep and a.qdrep: both reports
		}
	}
	var out []string
	for _, ps := range path {
		out = append(out, ps...)
	}
	sort.Strings(out)
	return out, nil
}

// isExportDir reports whether dir is itself one report: an nsys export
// directory by name, or one that holds tables and no reports.
func isExportDir(dir string) bool {
	if inputKind(filepath.Base(strings.TrimRight(dir, "/")), true) >= 0 {
		return true
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	tables := false
	for _, e := range ents {
		if inputKind(e.Name(), e.IsDir()) >= 0 {
			return false
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".parquet", ".arrow":
			tables = true
		}
	}
	return tables
}
