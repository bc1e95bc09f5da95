package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// cliAsTestEnv makes the test binary act as the nsysx CLI (the README
// test puts it on PATH as nsysx).
const cliAsTestEnv = "NSYSX_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliAsTestEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	testutil.Cleanup()
	os.Exit(code)
}

// runCLI runs nsysx in-process.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// filterArgs reads a profile's filters.txt: name -> shell-quoted arguments.
func filterArgs(t *testing.T, profile string) map[string][]string {
	txt, ok := testutil.Golden(t, profile, "filters.txt")
	if !ok {
		return nil
	}
	out := map[string][]string{}
	for _, line := range strings.Split(txt, "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var args []string
		for _, w := range regexp.MustCompile(`'[^']*'|\S+`).FindAllString(rest, -1) {
			args = append(args, strings.Trim(w, "'"))
		}
		out[strings.TrimSpace(name)] = args
	}
	return out
}

// goldenCase is one golden file and the nsysx command that must reproduce it.
type goldenCase struct {
	file    string
	args    []string // without the input file
	outFile string   // expected output file name under the temp dir, "" for stdout
	env     string   // LC_ALL value
	console bool     // rule console golden: drop empty lines
}

var reportSuffixes = []struct{ suffix, opt string }{{"_base", "base"}, {"_nvtx_name", "nvtx-name"}, {"_mangled", "mangled"}}

func reportFor(name string) (spec, fileTail string, ok bool) {
	if _, err := nsysx.LookupReport(name); err == nil {
		return name, "", true
	}
	for _, s := range reportSuffixes {
		if base, cut := strings.CutSuffix(name, s.suffix); cut {
			if _, err := nsysx.LookupReport(base); err == nil {
				return base + ":" + s.opt, "_" + s.opt, true
			}
		}
	}
	return "", "", false
}

func ruleFor(name string, filters map[string][]string) (args []string, tail string, ok bool) {
	if a, ok := filters[strings.TrimSuffix(name, ".csv")]; ok && strings.HasPrefix(name, "rule_") {
		spec := a[len(a)-1]
		return []string{"-r", spec}, "", true
	}
	rule := strings.TrimPrefix(name, "rule_")
	opts := map[string]string{"_rows_m1": "rows=-1", "_gap_1": "gap=1", "_threshold_90_chunks_60": "threshold=90:chunks=60"}
	for suf, o := range opts {
		if base, cut := strings.CutSuffix(rule, suf); cut {
			return []string{"-r", base + ":" + o}, "_" + strings.ReplaceAll(o, ":", "_"), true
		}
	}
	if _, err := nsysx.LookupRule(rule); err == nil {
		return []string{"-r", rule}, "", true
	}
	return nil, "", false
}

func goldenCases(t *testing.T, profile string) []goldenCase {
	dir := filepath.Join(testutil.Root(), "testdata", "golden", profile)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	filters := filterArgs(t, profile)
	var cases []goldenCase
	for _, e := range ents {
		file := strings.TrimSuffix(e.Name(), ".gz")
		stem := strings.TrimSuffix(strings.TrimSuffix(file, ".csv"), ".txt")
		c := goldenCase{file: file}
		switch {
		case file == "filters.txt":
			continue
		case strings.HasPrefix(file, "format_en_US."):
			f := strings.TrimPrefix(stem, "format_en_US.")
			c.args = []string{"stats", "-q", "-f", strings.ReplaceAll(f, "_", ":"), "-o", "-", "-r", "cuda_gpu_kern_sum,cuda_gpu_mem_size_sum"}
			c.env = "en_US.UTF-8"
		case strings.HasPrefix(file, "format_cuda_gpu_kern_sum."):
			f := strings.TrimPrefix(stem, "format_cuda_gpu_kern_sum.")
			c.args = []string{"stats", "-q", "-f", strings.ReplaceAll(f, "_", ":"), "-o", "-", "-r", "cuda_gpu_kern_sum"}
		case file == "units_mem_KiB_cuda_gpu_mem_size_sum.csv":
			c.args = []string{"stats", "-q", "-f", "csv:mem=KiB", "-o", "-", "-r", "cuda_gpu_mem_size_sum"}
		case strings.HasPrefix(file, "units_"):
			rep := strings.TrimPrefix(stem, "units_")
			c.args = []string{"stats", "-f", "csv:time=us", "-r", rep}
			c.outFile = "x_" + rep + ".csv"
		case strings.HasPrefix(file, "filter_"):
			kind, _, _ := strings.Cut(strings.TrimPrefix(stem, "filter_"), "_")
			rep := strings.TrimPrefix(stem, "filter_"+kind+"_")
			fa := filters["filter_"+kind]
			if fa == nil {
				t.Fatalf("%s: no filter_%s line in filters.txt", profile, kind)
			}
			c.args = append([]string{"stats", "-f", "csv", "-r", rep}, fa...)
			c.outFile = "*"
		case strings.HasSuffix(file, ".console.txt"):
			args, _, ok := ruleFor(strings.TrimSuffix(file, ".console.txt"), filters)
			if !ok {
				t.Errorf("%s/%s: no rule for this golden", profile, file)
				continue
			}
			c.args = append([]string{"analyze", "-q"}, args...)
			c.console = true
		case strings.HasPrefix(file, "rule_"):
			args, _, ok := ruleFor(stem, filters)
			if !ok {
				t.Errorf("%s/%s: no rule for this golden", profile, file)
				continue
			}
			c.args = append([]string{"analyze", "-f", "csv"}, args...)
			c.outFile = "*"
		default:
			spec, _, ok := reportFor(stem)
			if !ok {
				t.Errorf("%s/%s: no report for this golden", profile, file)
				continue
			}
			c.args = []string{"stats", "-f", "csv", "-r", spec}
			c.outFile = "*"
		}
		cases = append(cases, c)
	}
	return cases
}

// TestGoldens reproduces every golden file of every profile with the CLI.
func TestGoldens(t *testing.T) {
	matched, total := 0, 0
	for _, prof := range testutil.Profiles {
		in := testutil.Profile(t, prof)
		for _, c := range goldenCases(t, prof) {
			total++
			t.Run(prof+"/"+c.file, func(t *testing.T) {
				want, _ := testutil.Golden(t, prof, c.file)
				got := runGolden(t, c, in)
				if d := testutil.Diff(got, want); d != "" {
					t.Errorf("nsysx %s %s\ndiffers from nsys's %s: %s", strings.Join(c.args, " "), prof, c.file, d)
					return
				}
				matched++
			})
		}
	}
	t.Logf("%d of %d golden files reproduced byte for byte", matched, total)
}

// TestGoldensFromParquet: the Parquet export of train gives the same outputs
// as its SQLite export, for every golden file.
func TestGoldensFromParquet(t *testing.T) {
	in := filepath.Join(testutil.Root(), "testdata", "profiles", "train_pqtdir")
	for _, c := range goldenCases(t, "train") {
		t.Run(c.file, func(t *testing.T) {
			want, _ := testutil.Golden(t, "train", c.file)
			got := runGolden(t, c, in)
			if d := testutil.Diff(got, want); d != "" {
				t.Errorf("nsysx %s train_pqtdir\ndiffers from nsys's %s: %s", strings.Join(c.args, " "), c.file, d)
			}
		})
	}
}

func runGolden(t *testing.T, c goldenCase, in string) string {
	if c.env != "" {
		t.Setenv("LC_ALL", c.env)
	} else {
		t.Setenv("LC_ALL", "C.UTF-8")
	}
	args := append([]string(nil), c.args...)
	dir := t.TempDir()
	if c.outFile != "" {
		args = append(args, "-q", "-o", filepath.Join(dir, "x"))
	}
	args = append(args, in)
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if c.outFile == "" {
		if c.console {
			var keep []string
			for _, l := range strings.Split(stdout, "\n") {
				if l != "" {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "\n") + "\n"
		}
		return stdout
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) != 1 {
		t.Fatalf("expected one output file, got %v", names)
	}
	if c.outFile != "*" && names[0] != c.outFile {
		t.Errorf("output file named %s, want %s", names[0], c.outFile)
	}
	b, err := os.ReadFile(filepath.Join(dir, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
