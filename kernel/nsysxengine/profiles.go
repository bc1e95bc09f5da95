package nsysxengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/nsysx/nsysx/nsysx"
)

// profiles keeps the profiles opened by magics and nb.Open, by absolute
// path (.gz and .zst files are decompressed once into nsysx's cache by
// nsysx.Open), so that a profile is read once per kernel and its loaded
// columns are shared by every magic.
type profiles struct {
	mu      sync.Mutex
	open    map[string]cachedProfile
	bound   map[string]*nsysx.Profile // names given by %open
	tables  map[string]*nsysx.Result  // names given by %%sql ... as NAME
	last    *nsysx.Profile            // the profile opened last
	results []*nsysx.Result           // of the last %nsys stats/analyze
	seq     int                       // profiles opened so far (cachedProfile.seq)
}

type cachedProfile struct {
	p     *nsysx.Profile
	seq   int    // the order in which profiles were opened
	file  string // the file opened (the unpacked copy of a .gz)
	mtime time.Time
	size  int64
}

func newProfiles() *profiles {
	return &profiles{open: map[string]cachedProfile{}, bound: map[string]*nsysx.Profile{},
		tables: map[string]*nsysx.Result{}}
}

// get opens path (a .gz is unpacked first), or returns the profile opened
// before if the file did not change since. "sample" or nsysx.SampleName
// is the sample profile.
func (c *profiles) get(ctx context.Context, path string) (*nsysx.Profile, error) {
	if path == "sample" || path == nsysx.SampleName {
		return c.sample()
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no such file or directory", path)
		}
		return nil, err
	}
	c.mu.Lock()
	cp, ok := c.open[abs]
	c.mu.Unlock()
	if ok && cp.mtime.Equal(st.ModTime()) && cp.size == st.Size() {
		return cp.p, nil
	}
	file := path
	if !st.IsDir() {
		if file, err = nsysx.Decompressed(ctx, path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	// A .gz or .zst is decompressed once into nsysx's cache; Path is then
	// the path as typed without the suffix (Base() gives "train").
	p, err := nsysx.OpenWith(ctx, path, nsysx.OpenOptions{})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.seq++
	c.open[abs] = cachedProfile{p: p, seq: c.seq, file: file, mtime: st.ModTime(), size: st.Size()}
	c.mu.Unlock()
	return p, nil
}

func (c *profiles) sample() (*nsysx.Profile, error) {
	c.mu.Lock()
	cp, ok := c.open[nsysx.SampleName]
	c.mu.Unlock()
	if ok {
		return cp.p, nil
	}
	p, err := nsysx.OpenSample()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.seq++
	c.open[nsysx.SampleName] = cachedProfile{p: p, seq: c.seq}
	c.mu.Unlock()
	return p, nil
}

// Unpacked returns the path of the unpacked copy of a .gz file (path
// itself for other files), for tools that need the SQLite file.
func (c *profiles) unpacked(ctx context.Context, path string) (string, error) {
	return nsysx.Decompressed(ctx, path)
}

// bind records a profile under a name (%open ... as NAME) and as the last
// opened one.
func (c *profiles) bind(name string, p *nsysx.Profile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bound[name] = p
	c.last = p
}

// lookup finds a profile by bound name, else opens a file.
func (c *profiles) lookup(ctx context.Context, arg string) (*nsysx.Profile, error) {
	c.mu.Lock()
	p, ok := c.bound[arg]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.get(ctx, arg)
	if err == nil {
		c.mu.Lock()
		c.last = p
		c.mu.Unlock()
	}
	return p, err
}

// fileOf returns the file a profile was opened from ("" for the sample
// and profiles opened outside the cache).
func (c *profiles) fileOf(p *nsysx.Profile) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cp := range c.open {
		if cp.p == p {
			return cp.file
		}
	}
	return ""
}

// session returns the profiles open in the session (by %open, nb.Open or
// as inputs of magics), in the order they were opened, with the files
// they were opened from ("" for the sample).
func (c *profiles) session() ([]*nsysx.Profile, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cps := make([]cachedProfile, 0, len(c.open))
	for _, cp := range c.open {
		cps = append(cps, cp)
	}
	sort.Slice(cps, func(i, j int) bool { return cps[i].seq < cps[j].seq })
	ps, files := make([]*nsysx.Profile, len(cps)), make([]string, len(cps))
	for i, cp := range cps {
		ps[i], files[i] = cp.p, cp.file
	}
	return ps, files
}

// lastOpened returns the profile opened last, or nil.
func (c *profiles) lastOpened() *nsysx.Profile {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// names lists the bound names.
func (c *profiles) names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.bound))
	for n := range c.bound {
		out = append(out, n)
	}
	return out
}

// close forgets the profiles and, with closeProfiles, closes them.
func (c *profiles) close(closeProfiles bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cp := range c.open {
		if closeProfiles {
			cp.p.Close()
		}
	}
	c.open = map[string]cachedProfile{}
	return nil
}

// VarName makes a Go identifier from a file name: "train.sqlite.gz" and
// "runs/train_pqtdir" give "train", "rank-0.nsys-rep" gives "rank_0",
// "2024.sqlite" gives "p2024".
func VarName(path string) string {
	base := filepath.Base(strings.TrimRight(path, "/"))
	if path == nsysx.SampleName || path == "sample" {
		base = "sample"
	}
	for _, ext := range []string{".gz", ".sqlite", ".nsys-rep", ".qdrep", ".arrows", "_pqtdir", "_arwdir", ".arrow"} {
		base = strings.TrimSuffix(base, ext)
	}
	var b strings.Builder
	for _, r := range base {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit([]rune(s)[0]) {
		s = "p" + s
	}
	if isGoKeyword(s) {
		s += "_"
	}
	return s
}

func isGoKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
		"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var":
		return true
	}
	return false
}
