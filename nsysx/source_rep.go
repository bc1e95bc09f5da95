package nsysx

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoNsys is returned when a .nsys-rep must be exported and no nsys is on PATH.
var ErrNoNsys = errors.New("nsys is not on PATH")

// exportReport returns a SQLite export of a .nsys-rep: an existing export
// beside the report (or in the cache directory) that is newer than the report,
// or a fresh one made with `nsys export`.
func exportReport(ctx context.Context, rep string, o OpenOptions) (string, error) {
	repSt, err := os.Stat(rep)
	if err != nil {
		return "", err
	}
	base := strings.TrimSuffix(strings.TrimSuffix(rep, ".nsys-rep"), ".qdrep")
	beside := base + ".sqlite"
	cached := cachePath(rep)
	if !o.ForceExport {
		for _, c := range []string{beside, cached} {
			if st, err := os.Stat(c); err == nil && st.ModTime().After(repSt.ModTime()) {
				return c, nil
			}
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
	if o.Progress != nil {
		o.Progress(fmt.Sprintf("exporting %s to %s with nsys (once)...", rep, out))
	}
	tmp := out + ".tmp-export.sqlite"
	os.Remove(tmp)
	cmd := exec.CommandContext(ctx, nsys, "export", "--type", "sqlite", "--force-overwrite", "true", "--output", tmp, rep)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		if cerr := ctx.Err(); cerr != nil {
			return "", cerr
		}
		return "", fmt.Errorf("nsys export failed: %v: %s", err, firstLine(string(msg)))
	}
	if _, err := os.Stat(tmp); err != nil {
		return "", fmt.Errorf("nsys export wrote no %s: %s", tmp, firstLine(string(msg)))
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	return out, nil
}

// cacheDir is $NSYSX_CACHE_DIR, else nsysx in the user's cache directory.
func cacheDir() string {
	if dir := os.Getenv("NSYSX_CACHE_DIR"); dir != "" {
		return dir
	}
	if c, err := os.UserCacheDir(); err == nil {
		return filepath.Join(c, "nsysx")
	}
	return filepath.Join(os.TempDir(), "nsysx-cache")
}

func cachePath(rep string) string {
	dir := cacheDir()
	abs, _ := filepath.Abs(rep)
	h := sha256.Sum256([]byte(abs))
	name := strings.TrimSuffix(filepath.Base(rep), filepath.Ext(rep))
	return filepath.Join(dir, name+"-"+hex.EncodeToString(h[:6])+".sqlite")
}

func dirWritable(dir string) bool {
	f, err := os.CreateTemp(dir, ".nsysx-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// dirWritableFn is dirWritable, replaceable in tests (root can write anywhere).
var dirWritableFn = dirWritable
