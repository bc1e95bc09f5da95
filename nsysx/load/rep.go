package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/procgroup"
	"github.com/nsysx/nsysx/nsysx/model"
)

// ErrNoNsys is returned when a .nsys-rep must be exported and no nsys is on PATH.
var ErrNoNsys = errors.New("nsys is not on PATH")

// exportReport returns a SQLite export of a .nsys-rep: an existing export
// beside the report (or in the cache directory) that is newer than the
// report and valid, or a fresh one made with `nsys export`. Concurrent
// runs (processes or goroutines) export once: the others wait on a lock
// and reuse the export. nsys writes a unique temporary file that becomes
// the export only once it validates, so a half-written export is never
// kept; nsys runs in its own process group, stopped with everything it
// started when ctx is done or o.ExportTimeout passes.
func exportReport(ctx context.Context, rep string, o Options) (string, error) {
	repSt, err := os.Stat(rep)
	if err != nil {
		return "", err
	}
	base := strings.TrimSuffix(strings.TrimSuffix(rep, ".nsys-rep"), ".qdrep")
	beside := base + ".sqlite"
	cached := cachePath(rep)
	if !o.ForceExport {
		if c, err := freshExport(repSt.ModTime(), beside, cached); c != "" || err != nil {
			return c, err
		}
	}
	nsys, err := exec.LookPath("nsys")
	if err != nil {
		return "", fmt.Errorf("%w: cannot export this report; install Nsight Systems, or export it by hand with `nsys export -t sqlite -o %s %s` and open the .sqlite", ErrNoNsys, beside, rep)
	}
	out := beside
	if !dirWritableFn(filepath.Dir(beside)) {
		out = cached
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
	}
	return exportOnce(ctx, nsys, rep, out, repSt.ModTime(), o)
}

// freshExport returns the first of paths that is newer than the report
// (modified at rep), "" if none is; one that is newer but not a valid
// export is an error naming it.
func freshExport(rep time.Time, paths ...string) (string, error) {
	for _, c := range paths {
		if st, err := os.Stat(c); err != nil || !st.ModTime().After(rep) {
			continue
		}
		if err := validExport(c, false); err != nil {
			return "", fmt.Errorf("the export %s made earlier is not usable (%v): delete it, or pass --force-export (Options.ForceExport) to export again", c, err)
		}
		return c, nil
	}
	return "", nil
}

// exportOnce exports rep to out under the export lock of out. A run that
// waited for another finds that run's export and reuses it.
func exportOnce(ctx context.Context, nsys, rep, out string, repTime time.Time, o Options) (string, error) {
	started := time.Now()
	unlock, err := lockExport(ctx, out, o.Progress)
	if err != nil {
		return "", err
	}
	defer unlock()
	if st, err := os.Stat(out); err == nil && (!st.ModTime().Before(started) || !o.ForceExport && st.ModTime().After(repTime)) && validExport(out, false) == nil {
		return out, nil
	}
	if o.Progress != nil {
		o.Progress(fmt.Sprintf("exporting %s to %s with nsys (once)...", rep, out))
	}
	removeStaleExports(out, o)
	f, err := atomicfile.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".partial-*.sqlite")
	if err != nil {
		return "", err
	}
	f.Close()
	tmp := f.Name()
	defer os.Remove(tmp) // gone after a successful rename
	timeout, err := exportTimeout(o)
	if err != nil {
		return "", err
	}
	if err := runExport(ctx, nsys, rep, tmp, timeout); err != nil {
		return "", err
	}
	if err := validExport(tmp, true); err != nil {
		return "", fmt.Errorf("nsys export of %s wrote an unusable file (%v); nothing was kept", rep, err)
	}
	return out, os.Rename(tmp, out)
}

// removeStaleExports removes the partial exports to out that killed runs
// left (nsysx killed with SIGKILL cannot remove its own): exactly our
// temporary names for out, owned by this user, untouched for the export
// timeout (atomicfile.StaleAfter without one). It runs under out's export
// lock, so no cooperating run is writing one of them.
func removeStaleExports(out string, o Options) {
	age, _ := exportTimeout(o)
	if age <= 0 {
		age = atomicfile.StaleAfter
	}
	atomicfile.RemoveStale(filepath.Dir(out), filepath.Base(out), ".sqlite", age)
}

// runExport runs `nsys export` to tmp in its own process group, with a
// time limit when timeout > 0.
func runExport(ctx context.Context, nsys, rep, tmp string, timeout time.Duration) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := procgroup.Command(ctx, nsys, "export", "--type", "sqlite", "--force-overwrite", "true", "--output", tmp, rep)
	msg, err := procgroup.CombinedOutput(ctx, cmd)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("nsys export of %s stopped after --export-timeout %v (NSYSX_EXPORT_TIMEOUT, Options.ExportTimeout)", rep, timeout)
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("nsys export failed: %v: %s", err, firstLine(string(msg)))
	}
	if st, err := os.Stat(tmp); err != nil || st.Size() == 0 {
		return fmt.Errorf("nsys export wrote nothing to %s: %s", tmp, firstLine(string(msg)))
	}
	return nil
}

// exportTimeout is o.ExportTimeout, else $NSYSX_EXPORT_TIMEOUT, else 0:
// no limit.
func exportTimeout(o Options) (time.Duration, error) {
	if o.ExportTimeout > 0 {
		return o.ExportTimeout, nil
	}
	return ExportTimeoutEnv()
}

// ExportTimeoutEnv reads $NSYSX_EXPORT_TIMEOUT, the default limit of an
// nsys export: a Go duration such as 30m; 0 when unset or empty (no
// limit). Any other value is an error (model.ErrBadOption) naming it, as a bad
// --export-timeout is.
func ExportTimeoutEnv() (time.Duration, error) {
	v := os.Getenv("NSYSX_EXPORT_TIMEOUT")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, badValue(fmt.Sprintf("NSYSX_EXPORT_TIMEOUT: %q is not a duration such as 90s, 10m or 1h", v))
	}
	return d, nil
}

// badValue is an error that reads as its message alone and matches
// model.ErrBadOption.
type badValue string

func (b badValue) Error() string        { return string(b) }
func (b badValue) Is(target error) bool { return target == model.ErrBadOption }
