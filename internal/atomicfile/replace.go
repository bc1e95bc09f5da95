package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// ErrExists is matched (errors.Is) by every refusal to write over an
// existing output: one that exists while overwriting was not asked for,
// and one that --force-overwrite may not replace (CheckDir).
var ErrExists = errors.New("output directory exists")

// Manifest is the file Dir writes into every directory it publishes: it
// marks the directory as an output of nsysx and lists the files nsysx
// wrote there (docs/outputs.md).
const Manifest = ".nsysx-output"

// DirOptions say what Dir may replace.
type DirOptions struct {
	// Force is --force-overwrite: replace an existing directory that
	// CheckDir accepts.
	Force bool
	// Inputs are the paths the run reads. A directory that is one of
	// them or holds one at any depth (paths made absolute, symbolic links
	// resolved) is never replaced, with or without Force.
	Inputs []string
}

// refusal is an existing output that CheckDir will not replace; its
// message is one line naming the directory. It matches ErrExists.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrExists }

func refuse(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// recipeExts are the kinds of file an nsys recipe writes into its output
// directory; a directory without our Manifest (nsys's own, or one nsysx
// wrote before the manifest existed) is replaced only if it holds nothing
// else.
var recipeExts = []string{".nsys-analysis", ".parquet", ".csv", ".ipynb", ".html", ".png", ".svg", ".json", ".py"}

// CheckDir says whether Dir may write dir. A missing dir or an empty
// directory may be written. Otherwise, in this order:
//   - a symbolic link, a file, or a path under a file: refused;
//   - a directory that is or holds one of o.Inputs: refused;
//   - a directory that is not an output of nsysx or nsys: refused. An
//     output of nsysx holds the Manifest and nothing but the regular files
//     it lists; an output of nsys's recipes (or of nsysx before the
//     manifest) holds a .nsys-analysis file and only regular files of the
//     kinds recipes write (recipeExts);
//   - without o.Force: refused (ErrExists, naming --force-overwrite).
//
// Every refusal matches ErrExists and touches nothing.
func CheckDir(dir string, o DirOptions) error {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, syscall.ENOTDIR):
		return notDirParent(dir)
	case err != nil:
		return fmt.Errorf("checking %s: %w", dir, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return refuse("%s is a symbolic link; nsysx writes only a directory of its own there (name the directory itself, or another)", dir)
	case !st.IsDir():
		return refuse("%s exists and is not a directory", dir)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	ents := make([]Entry, len(des))
	for i, e := range des {
		ents[i] = Entry{e.Name(), e.Type().IsRegular()}
	}
	return CheckListing(dir, o, ents, func() ([]byte, error) { return os.ReadFile(filepath.Join(dir, Manifest)) })
}

// Entry is one entry of an existing output directory: its name and
// whether it is a regular file.
type Entry struct {
	Name    string
	Regular bool
}

// CheckListing is CheckDir's rule for a directory known by its listing
// (a remote one: nsysx-beam's output on a Beam filesystem): ents are its
// entries, manifest reads its Manifest when ents has one. It never
// resolves symbolic links; inputs are compared as paths.
func CheckListing(dir string, o DirOptions, ents []Entry, manifest func() ([]byte, error)) error {
	if len(ents) == 0 {
		return nil
	}
	if in := heldInput(dir, o.Inputs); in != "" {
		return refuse("%s holds the input %s; nsysx never replaces it (choose another output)", dir, in)
	}
	if err := ours(dir, ents, manifest); err != nil {
		return err
	}
	if !o.Force {
		return refuse("%s exists and is not empty (pass --force-overwrite to replace it)", dir)
	}
	return nil
}

// ours checks that dir, whose entries are ents, is an output of nsysx or
// nsys that holds only what they wrote.
func ours(dir string, ents []Entry, manifest func() ([]byte, error)) error {
	var listed map[string]bool
	kind := "not an output directory of nsysx or nsys"
	if slices.ContainsFunc(ents, func(e Entry) bool { return e.Name == Manifest }) {
		b, err := manifest()
		if err == nil {
			listed, err = parseManifest(b)
		}
		if err != nil {
			return refuse("%s: its %s cannot be read (%v); nsysx does not replace it", dir, Manifest, err)
		}
		kind = "an output of nsysx"
	} else if slices.ContainsFunc(ents, func(e Entry) bool { return strings.HasSuffix(e.Name, ".nsys-analysis") }) {
		kind = "a recipe output"
	} else {
		return refuse("%s is %s (no %s or .nsys-analysis in it); --force-overwrite replaces only those", dir, kind, Manifest)
	}
	var foreign []string
	for _, e := range ents {
		ok := e.Regular
		if listed != nil {
			ok = ok && (listed[e.Name] || e.Name == Manifest)
		} else {
			ok = ok && slices.Contains(recipeExts, strings.ToLower(filepath.Ext(e.Name)))
		}
		if !ok {
			foreign = append(foreign, e.Name)
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	more := ""
	if len(foreign) > 3 {
		more = fmt.Sprintf(" and %d more", len(foreign)-3)
		foreign = foreign[:3]
	}
	return refuse("%s is %s but also holds %s%s, which nsysx did not write; nsysx does not replace it (move those out or delete the directory yourself)",
		dir, kind, strings.Join(foreign, ", "), more)
}

// notDirParent is the error for a dir whose path runs through a file.
func notDirParent(dir string) error {
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return refuse("cannot create %s: %s is not a directory", dir, p)
		}
		if p == filepath.Dir(p) {
			return refuse("cannot create %s: a parent is not a directory", dir)
		}
	}
}

// heldInput returns the first of inputs that is dir or lies under it,
// "" if none does. An input that is a symbolic link counts where the link
// is (removing dir would remove it) and where it points.
func heldInput(dir string, inputs []string) string {
	d := realPath(dir)
	for _, in := range inputs {
		abs, _ := filepath.Abs(in)
		for _, p := range []string{realPath(in), filepath.Join(realPath(filepath.Dir(abs)), filepath.Base(abs))} {
			rel, err := filepath.Rel(d, p)
			if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return in
			}
		}
	}
	return ""
}

// realPath is p made absolute with its symbolic links resolved; for a
// path that does not exist, its deepest existing parent is resolved.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs
	}
	return filepath.Join(realPath(parent), filepath.Base(abs))
}

// manifest is the content of the Manifest file.
type manifest struct {
	WrittenBy string   `json:"written_by"`
	Note      string   `json:"note"`
	Files     []string `json:"files"`
}

// writeManifest lists the entries of dir in its Manifest.
func writeManifest(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	m := manifest{WrittenBy: "nsysx", Note: "nsysx --force-overwrite replaces this directory only while it holds just these files", Files: []string{}}
	for _, e := range ents {
		m.Files = append(m.Files, e.Name())
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, Manifest), append(b, '\n'), 0o666); err != nil {
		return fmt.Errorf("writing %s: %w", Manifest, err)
	}
	return nil
}

// parseManifest returns the set of files a Manifest lists.
func parseManifest(b []byte) (map[string]bool, error) {
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil || m.WrittenBy != "nsysx" {
		return nil, errors.New("not a manifest of nsysx")
	}
	set := map[string]bool{}
	for _, f := range m.Files {
		set[f] = true
	}
	return set, nil
}
