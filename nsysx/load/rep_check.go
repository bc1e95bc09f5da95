package load

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nsysx/nsysx/nsysx/model"
)

// validExport checks that path is a complete SQLite export: the page
// count its header records fits in the file, its schema reads, it has
// an export's tables and StringIds; deep also reads StringIds to the end
// (for a fresh export: an export reused later was checked so).
func validExport(path string, deep bool) error {
	if err := checkSQLiteSize(path); err != nil {
		return err
	}
	src, err := openSQLite(path)
	if err != nil {
		return err
	}
	defer src.Close()
	if !model.LooksLikeExport(src.Schema()) {
		return fmt.Errorf("%w (no StringIds, metadata or event tables)", ErrNotExport)
	}
	var ts *TableSchema
	for _, t := range src.Schema() {
		if lower(t.Name) == "stringids" {
			ts = t
		}
	}
	if ts == nil {
		return errors.New("no StringIds table")
	}
	if !deep {
		return nil
	}
	if _, err := src.Load(context.Background(), ts, ts.Columns); err != nil {
		return fmt.Errorf("reading StringIds: %w", err)
	}
	return nil
}

// checkSQLiteSize compares the database size in a SQLite header (bytes
// 28-31, valid when the change counter at 24 equals the one at 92) with
// the file's size: a file cut short holds fewer pages.
func checkSQLiteSize(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return errors.New("shorter than a SQLite header")
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	ps := int64(binary.BigEndian.Uint16(h[16:18]))
	if ps == 1 {
		ps = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	if string(h[24:28]) == string(h[92:96]) && pages*ps > st.Size() {
		return fmt.Errorf("truncated: %d of %d pages", st.Size()/max(ps, 1), pages)
	}
	return nil
}

// lockExport takes the lock on exports to out (flock on a file in the
// cache directory, or beside out), waiting for a run that holds it; it
// gives up when ctx is done.
func lockExport(ctx context.Context, out string, progress func(string)) (unlock func(), err error) {
	abs, _ := filepath.Abs(out)
	h := sha256.Sum256([]byte(abs))
	name := filepath.Join(cacheDir(), "locks", hex.EncodeToString(h[:8])+".lock")
	if os.MkdirAll(filepath.Dir(name), 0o755) != nil {
		name = out + ".lock"
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("export lock: %w", err)
	}
	for said := false; ; said = true {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("export lock %s: %w", name, err)
		}
		if !said && progress != nil {
			progress(fmt.Sprintf("waiting for another nsysx exporting to %s...", out))
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
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
