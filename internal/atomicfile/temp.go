package atomicfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CreateTemp is os.CreateTemp, but the file gets the mode a plain
// os.Create gives (0666 less the umask) instead of 0600, so that a file
// renamed into place is as readable as any other the user creates. (The
// umask cannot be read without setting it for the whole process, so the
// file is created with 0666 and the kernel applies it.) The last "*" of
// pattern is replaced by a random number.
func CreateTemp(dir, pattern string) (*os.File, error) {
	var f *os.File
	err := tryNames(dir, pattern, func(name string) (err error) {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		return err
	})
	return f, err
}

// MkdirTemp is os.MkdirTemp with the mode of a plain os.Mkdir(0777): 0777
// less the umask instead of 0700. It returns the directory's path.
func MkdirTemp(dir, pattern string) (string, error) {
	var path string
	err := tryNames(dir, pattern, func(name string) error {
		path = name
		return os.Mkdir(name, 0o777)
	})
	return path, err
}

// tryNames calls create with fresh names from pattern until one does not
// exist yet.
func tryNames(dir, pattern string, create func(string) error) error {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		err := create(name)
		if !os.IsExist(err) || try == 10000 {
			return err
		}
	}
}

// StaleAfter is how long a temporary left by a killed run must have been
// untouched before RemoveStale removes it.
const StaleAfter = time.Hour

// RemoveStale removes the temporaries that killed runs left for the
// output base in dir: the entries named exactly ".BASE.partial-N" +
// suffix (N a number, as CreateTemp and MkdirTemp name them) or the same
// with ".old" (Dir's previous output moved aside, once its temporary is
// gone), owned by this user, of which nothing was modified within age.
// It returns the names removed. Errors are ignored: the cleanup is a
// courtesy, never a reason to fail a run.
func RemoveStale(dir, base, suffix string, age time.Duration) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	re := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.partial-[0-9]+` + regexp.QuoteMeta(suffix) + `(\.old)?$`)
	var removed []string
	for _, e := range ents {
		n := e.Name()
		m := re.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		p := filepath.Join(dir, n)
		if m[1] != "" {
			if _, err := os.Lstat(strings.TrimSuffix(p, ".old")); err == nil {
				continue // its run may still be publishing
			}
		}
		if !mineAndOld(p, age) {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed = append(removed, n)
		}
	}
	return removed
}

// mineAndOld says whether p is owned by this user and neither it nor, for
// a directory, any of its entries was modified within age.
func mineAndOld(p string, age time.Duration) bool {
	st, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != os.Getuid() {
		return false
	}
	cut := time.Now().Add(-age)
	if st.ModTime().After(cut) {
		return false
	}
	if !st.IsDir() {
		return true
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if info, err := e.Info(); err != nil || info.ModTime().After(cut) {
			return false
		}
	}
	return true
}
