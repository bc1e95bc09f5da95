package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
)

// The README's examples run as written, from a fresh clone's root. Every
// ```sh block runs line by line in bash, in a directory that holds what a
// clone's root holds for them (testdata/, the compressed profiles the
// README names, as they are shipped), with this test binary as `nsysx` on
// PATH; each line must exit 0 and print something (unless its result is
// a file), and a recipe must not print "No output generated.". Every
// ```go block is a notebook: its blank-line-separated parts are cells, run
// in order by the nsysx kernel engine in that directory; a cell must not
// fail. A block that cannot run here is marked by an HTML comment on the
// line before it,
//
//	<!-- not-run: needs nsys -->
//
// whose reason is logged. A block of sample output is checked against the
// command it shows, named by an HTML comment on the line before it,
//
//	<!-- output-of: nsysx stats -q -r gpu_idle_breakdown testdata/profiles/sync.sqlite.gz -->
//
// its lines must be lines of that output in the same order ("..." stands
// for rows left out). Other blocks (no info string, ```text) are prose.

// readmeBlock is one fenced code block of README.md.
type readmeBlock struct {
	lang, body, notRun string
	outputOf           string // the command whose output a sample block shows
	line               int
}

var (
	notRunRe   = regexp.MustCompile(`^<!--\s*not-run:\s*(.*?)\s*-->$`)
	outputOfRe = regexp.MustCompile(`^<!--\s*output-of:\s*(.*?)\s*-->$`)
)

// readmeBlocks returns the README's ```sh and ```go blocks.
func readmeBlocks(t *testing.T, text string) []readmeBlock {
	t.Helper()
	lines := strings.Split(text, "\n")
	var out []readmeBlock
	prev := ""
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "```") {
			if l != "" {
				prev = l
			}
			continue
		}
		b := readmeBlock{lang: strings.TrimPrefix(l, "```"), line: i + 1}
		if m := notRunRe.FindStringSubmatch(prev); m != nil {
			b.notRun = m[1]
		}
		if m := outputOfRe.FindStringSubmatch(prev); m != nil {
			b.outputOf = m[1]
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("README.md:%d: unclosed code block", b.line)
		}
		b.body, prev = strings.Join(body, "\n"), ""
		if b.lang == "sh" || b.lang == "go" || b.outputOf != "" {
			out = append(out, b)
		}
	}
	return out
}

func TestReadmeExamples(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(testutil.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, string(text))
	if len(blocks) < 5 {
		t.Fatalf("only %d sh/go blocks found in README.md", len(blocks))
	}
	dir := readmeDir(t)
	ran := 0
	for _, b := range blocks {
		if b.notRun != "" {
			t.Logf("README.md:%d: ```%s block not run: %s", b.line, b.lang, b.notRun)
			continue
		}
		ran++
		switch {
		case b.outputOf != "":
			checkSampleBlock(t, dir, b)
		case b.lang == "sh":
			runShellBlock(t, dir, b)
		default:
			runNotebookBlock(t, dir, b)
		}
	}
	t.Logf("%d of %d README blocks ran", ran, len(blocks))
}

// readmeDir is a directory standing for a fresh clone's root: the
// repository's testdata/ (nothing unpacked beside it) and a bin/nsysx that
// is this test binary acting as the CLI.
func readmeDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(testutil.Root(), "testdata"), filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	if err := os.Symlink(exe, filepath.Join(dir, "bin", "nsysx")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// goBuildCache is the go command's build cache as the tests found it: a
// README line that runs a Go tool (`go tool pprof`) builds it there, as a
// user's machine would, instead of from nothing in the block's own HOME
// (minutes on a loaded two-core machine, past the line's time limit).
func goBuildCache(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// runShellBlock runs each command line of a block; each must exit 0.
func runShellBlock(t *testing.T, dir string, b readmeBlock) {
	for i, line := range strings.Split(b.body, "\n") {
		cmdline := strings.TrimSpace(line)
		if cmdline == "" || strings.HasPrefix(cmdline, "#") {
			continue
		}
		if prog := strings.Fields(cmdline)[0]; prog != "nsysx" {
			if _, err := exec.LookPath(prog); err != nil {
				if os.Getenv("CI") != "" {
					t.Errorf("README.md:%d: `%s`: %s is not installed (scripts/install-test-deps.sh)", b.line+1+i, cmdline, prog)
				} else {
					t.Logf("README.md:%d: `%s` not run: %s is not installed (make deps installs it)", b.line+1+i, cmdline, prog)
				}
				continue
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-c", cmdline)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), cliAsTestEnv+"=1", "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"),
			"HOME="+filepath.Join(dir, "home"), "XDG_DATA_HOME="+filepath.Join(dir, "home", ".local", "share"),
			"NSYSX_CACHE_DIR="+filepath.Join(dir, "cache"), "GOCACHE="+goBuildCache(t))
		out, err := cmd.CombinedOutput()
		cancel()
		switch {
		case err != nil:
			t.Errorf("README.md:%d: `%s`: %v\n%s", b.line+1+i, cmdline, err, tail(out))
		case strings.Contains(string(out), "No output generated."):
			t.Errorf("README.md:%d: `%s` found no data to work on:\n%s", b.line+1+i, cmdline, tail(out))
		case len(bytes.TrimSpace(out)) == 0 && !writesFile(cmdline):
			t.Errorf("README.md:%d: `%s` printed nothing", b.line+1+i, cmdline)
		}
	}
}

// checkSampleBlock runs the command a sample output block names and checks
// that the block's lines (but its "..." lines, which stand for rows left
// out) are lines of the output, in the order shown.
func checkSampleBlock(t *testing.T, dir string, b readmeBlock) {
	cmd := exec.Command("bash", "-c", b.outputOf)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), cliAsTestEnv+"=1", "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"),
		"NSYSX_CACHE_DIR="+filepath.Join(dir, "cache"))
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("README.md:%d: `%s`: %v", b.line, b.outputOf, err)
		return
	}
	lines := strings.Split(string(out), "\n")
	at := 0
	for _, want := range strings.Split(b.body, "\n") {
		if strings.TrimSpace(want) == "..." {
			continue
		}
		for at < len(lines) && strings.TrimRight(lines[at], " ") != strings.TrimRight(want, " ") {
			at++
		}
		if at == len(lines) {
			t.Errorf("README.md:%d: the sample line\n%s\nis not in the output of `%s` (in this order):\n%s", b.line, want, b.outputOf, tail(out))
			return
		}
		at++
	}
}

// writesFile reports whether a command line's result is a file: its
// standard output redirected, or an -o other than the console.
func writesFile(cmdline string) bool {
	if i := strings.Index(cmdline, " #"); i >= 0 {
		cmdline = cmdline[:i]
	}
	return strings.Contains(cmdline, " > ") || (strings.Contains(cmdline, " -o ") && !strings.Contains(cmdline, " -o - "))
}

// runNotebookBlock runs a ```go block's cells in one kernel.
func runNotebookBlock(t *testing.T, dir string, b readmeBlock) {
	t.Chdir(dir)
	k := newTestKernel(t)
	for _, c := range strings.Split(b.body, "\n\n") {
		if strings.TrimSpace(c) == "" {
			continue
		}
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := k.RunCell(ctx, c, kernel.TextOutput{W: &out})
		cancel()
		if err != nil || strings.HasPrefix(out.String(), "error:") || strings.Contains(out.String(), "\nerror:") {
			t.Errorf("README.md:%d: cell\n%s\nfailed: %v\n%s", b.line, c, err, tail(out.Bytes()))
		}
	}
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// A compressed profile opens in the CLI as in the kernel.
func TestStatsCompressedInput(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	gz := testutil.GzProfile("train")
	out, errOut, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "csv", gz)
	want, _ := testutil.Golden(t, "train", "cuda_gpu_kern_sum.csv")
	if code != 0 || strings.TrimSpace(out) != strings.TrimSpace(want) {
		t.Errorf("exit %d, stderr %q, output differs from the golden:\n%s", code, errOut, testutil.Diff(out, want))
	}
}
