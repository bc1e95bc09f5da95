package beamrecipe

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestMemoryBounded: 64 reports through Beam (Prism in-process) peak within
// the resident memory of 8. Each count runs in a child process (this test
// binary, memChild) that reports its own VmHWM; the reports are links to
// one rank0, so the inputs differ only in number. 64 × rank0 maps in about
// ten seconds here; -short skips it.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 64-report run")
	}
	hwm := map[int]int64{}
	for _, n := range []int{8, 64} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("rank0@rank%03d", i)
		}
		dir := filepath.Dir(testutil.Links(t, names...)[0])
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), memChildEnv+"="+strconv.Itoa(n), memChildDir+"="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d reports: %v\n%s", n, err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM "); ok {
				hwm[n], _ = strconv.ParseInt(v, 10, 64)
			}
		}
		if hwm[n] <= 0 {
			t.Fatalf("%d reports: no VmHWM in\n%s", n, out)
		}
	}
	t.Logf("peak RSS: 8 reports %d KiB, 64 reports %d KiB", hwm[8], hwm[64])
	// Allowance: 64 parts are kept for the reduce, and Go's heap grows in steps.
	if limit := hwm[8] + hwm[8]/4; hwm[64] > limit {
		t.Errorf("64 reports peaked at %d KiB, over 1.25 × the %d KiB of 8", hwm[64], hwm[8])
	}
}

// peakRSS is this process's peak resident set size in KiB (VmHWM of
// /proc/self/status, Linux).
func peakRSS() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}
