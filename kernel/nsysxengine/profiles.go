package nsysxengine

import (
	"compress/gzip"
	"fmt"
	"io"
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
// path, and the gunzipped copies of .gz files, so that a profile is read
// once per kernel and its loaded columns are shared by every magic.
type profiles struct {
	mu      sync.Mutex
	tmp     string // directory of unpacked files, made on first use
	open    map[string]cachedProfile
	unpack  map[string]cachedFile
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

type cachedFile struct {
	path  string
	mtime time.Time
}

func newProfiles() *profiles {
	return &profiles{open: map[string]cachedProfile{}, unpack: map[string]cachedFile{}, bound: map[string]*nsysx.Profile{},
		tables: map[string]*nsysx.Result{}}
}

// get opens path (a .gz is unpacked first), or returns the profile opened
// before if the file did not change since. "sample" or nsysx.SampleName
// is the sample profile.
func (c *profiles) get(path string) (*nsysx.Profile, error) {
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
	if strings.HasSuffix(strings.ToLower(path), ".gz") && !st.IsDir() {
		if file, err = c.gunzip(abs, st.ModTime()); err != nil {
			return nil, err
		}
	}
	p, err := nsysx.Open(file)
	if err != nil {
		return nil, err
	}
	// Messages and output file names use the path as the user typed it,
	// without .gz (Base() then gives "train" for train.sqlite.gz).
	p.Path = strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".GZ")
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

// gunzip unpacks abs into the temporary directory (once per version of
// the file) and returns the unpacked file's path.
func (c *profiles) gunzip(abs string, mtime time.Time) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.unpack[abs]; ok && f.mtime.Equal(mtime) {
		return f.path, nil
	}
	if c.tmp == "" {
		dir, err := os.MkdirTemp("", "nsysx-kernel-")
		if err != nil {
			return "", err
		}
		c.tmp = dir
	}
	out := filepath.Join(c.tmp, fmt.Sprintf("%d-%s", len(c.unpack), strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))))
	if err := gunzipFile(abs, out); err != nil {
		return "", fmt.Errorf("unpacking %s: %w", abs, err)
	}
	c.unpack[abs] = cachedFile{path: out, mtime: mtime}
	return out, nil
}

func gunzipFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	z, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, z); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Unpacked returns the path of the unpacked copy of a .gz file (path
// itself for other files), for tools that need the SQLite file.
func (c *profiles) unpacked(path string) (string, error) {
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	return c.gunzip(abs, st.ModTime())
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
func (c *profiles) lookup(arg string) (*nsysx.Profile, error) {
	c.mu.Lock()
	p, ok := c.bound[arg]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.get(arg)
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

// close removes the unpacked files and, with closeProfiles, closes the
// profiles.
func (c *profiles) close(closeProfiles bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cp := range c.open {
		if closeProfiles {
			cp.p.Close()
		}
	}
	c.open = map[string]cachedProfile{}
	if c.tmp != "" {
		err := os.RemoveAll(c.tmp)
		c.tmp = ""
		return err
	}
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
