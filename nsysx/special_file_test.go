//go:build unix

package nsysx_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nsysx/nsysx/nsysx"
)

// A named pipe, a device, or a pipe inside a Parquet directory given as a
// profile fails at once with a one-line error saying what it is; reading
// one would block forever (a FIFO) or never end (/dev/zero).
func TestSpecialFilesFailAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.sqlite")
	pq := filepath.Join(dir, "pq")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Mkdir(pq, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(pq, "StringIds.parquet"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo+".gz", 0o600); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{fifo: "named pipe", fifo + ".gz": "named pipe", pq: "named pipe", "/dev/zero": "device"} {
		done := make(chan error, 1)
		go func() {
			p, err := nsysx.Open(path)
			if err == nil {
				p.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !errors.Is(err, nsysx.ErrNotExport) || !strings.Contains(err.Error(), what) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want a one-line error saying it is a %s", path, err, what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%s) blocks", path)
		}
	}
}
