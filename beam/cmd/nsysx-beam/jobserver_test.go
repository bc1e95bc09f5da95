package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
)

// TestPrismJobServerLoopback submits to a stand-alone Prism job server (the
// Beam module's cmd/prism, built here) with --runner universal and the
// LOOPBACK environment (the SDK harness runs in this process, fed by the
// job server over gRPC): the output directory has the same files, and the
// same Parquet tables, as Prism in-process.
func TestPrismJobServerLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the Prism job server")
	}
	for _, f := range []string{"runner", "endpoint", "environment_type"} {
		defer flag.Set(f, "")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	prism := filepath.Join(dir, "prism")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", prism, "github.com/apache/beam/sdks/v2/go/cmd/prism").CombinedOutput(); err != nil {
		t.Fatalf("building prism: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv := exec.CommandContext(ctx, prism, "--job_port", fmt.Sprint(port), "--serve_http=false")
	var log strings.Builder
	srv.Stdout, srv.Stderr = &log, &log
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism not listening after a minute:\n%s", log.String())
		}
	}
	in := []string{filepath.Join(dir, "rank0.sqlite"), filepath.Join(dir, "rank1.sqlite")}
	for i, p := range []string{"rank0", "rank1"} {
		if err := os.Symlink(testutil.Profile(t, p), in[i]); err != nil {
			t.Fatal(err)
		}
	}
	want, got := filepath.Join(dir, "inprocess", "kern"), filepath.Join(dir, "jobserver", "kern")
	os.Mkdir(filepath.Dir(want), 0o755)
	os.Mkdir(filepath.Dir(got), 0o755)
	args := append([]string{"recipe", "cuda_gpu_kern_sum", "--input"}, in...)
	if code, stdout, stderr := runCLI(append(args, "--output", want)...); code != 0 {
		t.Fatalf("in-process: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(append(args, "--output", got, "--runner", "universal",
		"--endpoint", fmt.Sprintf("localhost:%d", port), "--environment_type", "LOOPBACK")...)
	if code != 0 || !strings.Contains(stdout, "Generated:") {
		t.Fatalf("job server: exit %d\n%s%s\n%s", code, stdout, stderr, log.String())
	}
	wn, gn := testutil.DirNames(t, want), testutil.DirNames(t, got)
	if !slices.Equal(wn, gn) {
		t.Fatalf("files differ:\n want %v\n  got %v", wn, gn)
	}
	for _, n := range wn {
		if strings.HasSuffix(n, ".parquet") {
			if err := pqcompare.Files(filepath.Join(want, n), filepath.Join(got, n)); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}
	}
}
