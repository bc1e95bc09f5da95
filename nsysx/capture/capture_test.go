package capture

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 12, 2, 4, 5, 6, 0, time.UTC)
	cases := []struct {
		args          []string
		flags, cmd    []string
		report, error string
	}{
		{args: []string{"-t", "cuda,nvtx", "--", "python3", "train.py"}, flags: []string{"-t", "cuda,nvtx", "-o", "d/nsysx-profile-20261202-040506"},
			cmd: []string{"python3", "train.py"}, report: "d/nsysx-profile-20261202-040506.nsys-rep"},
		{args: []string{"python3", "x.py"}, flags: []string{"-o", "d/nsysx-profile-20261202-040506"}, cmd: []string{"python3", "x.py"},
			report: "d/nsysx-profile-20261202-040506.nsys-rep"},
		{args: []string{"-o", "run1", "--", "./a.out"}, flags: []string{"-o", "run1"}, cmd: []string{"./a.out"}, report: "run1.nsys-rep"},
		{args: []string{"--output=r.nsys-rep", "--", "./a.out"}, flags: []string{"--output=r.nsys-rep"}, cmd: []string{"./a.out"}, report: "r.nsys-rep"},
		{args: []string{"-t", "cuda"}, error: "no command"},
		{args: []string{"-t", "cuda", "--"}, error: "no command"},
		{args: []string{"-o", "r%p", "--", "x"}, error: "plain output name"},
		{args: []string{"--", "x", "-o"}, flags: []string{"-o", "d/nsysx-profile-20261202-040506"}, cmd: []string{"x", "-o"},
			report: "d/nsysx-profile-20261202-040506.nsys-rep"},
	}
	for _, c := range cases {
		p, err := Parse(c.args, "d", now)
		if c.error != "" {
			if err == nil || !strings.Contains(err.Error(), c.error) {
				t.Errorf("%q: err %v, want %q", c.args, err, c.error)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if !reflect.DeepEqual(p.Flags, c.flags) || !reflect.DeepEqual(p.Command, c.cmd) || p.Report != c.report {
			t.Errorf("%q: got %q %q %q, want %q %q %q", c.args, p.Flags, p.Command, p.Report, c.flags, c.cmd, c.report)
		}
	}
}

func TestRunStreamsAndReturnsReport(t *testing.T) {
	testutil.FakeProfiler(t, "")
	dir := t.TempDir()
	p, err := Parse([]string{"-t", "cuda", "--", "echo", "hello from the program"}, dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep, err := Run(context.Background(), p, &out)
	if err != nil {
		t.Fatal(err, out.String())
	}
	if rep != p.Report || !strings.Contains(out.String(), "hello from the program") || !strings.Contains(out.String(), "Generated:") {
		t.Fatalf("report %s, output %q", rep, out.String())
	}
}

func TestRunFailsAndCancels(t *testing.T) {
	testutil.FakeCommand(t, "nsys", "echo boom; exit 3")
	p, _ := Parse([]string{"--", "true"}, t.TempDir(), time.Now())
	if _, err := Run(context.Background(), p, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "nsys profile failed") {
		t.Fatalf("err %v", err)
	}
	testutil.FakeCommand(t, "nsys", "sleep 30 & wait")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Run(ctx, p, &strings.Builder{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("cancel did not stop nsys")
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Run(context.Background(), p, &strings.Builder{}); !errors.Is(err, ErrNoNsys) {
		t.Fatalf("err %v", err)
	}
}
