package beamrecipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// IsRemote reports whether p names a file of a Beam filesystem
// (scheme://...) rather than a local path.
func IsRemote(p string) bool {
	i := strings.Index(p, "://")
	return i > 0 && !strings.ContainsAny(p[:i], "/.")
}

// remoteReport reports whether a listed remote file is a report: the files
// ExpandInputs lists in a directory (export directories cannot be listed
// remotely).
func remoteReport(name string) bool {
	l := strings.ToLower(name)
	if strings.HasSuffix(l, ".tmp-export.sqlite") {
		return false
	}
	for _, s := range []string{".nsys-rep", ".qdrep", ".sqlite"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// ExpandInputs is recipe.ExpandInputs for local paths, and for a Beam
// filesystem path (gs://..., s3://..., memfs://...): a file is kept, a
// "directory/" or a glob expands to its reports, sorted. The order of the
// arguments is kept. Every error is a usage error.
func ExpandInputs(args []string) ([]string, error) {
	ctx := context.Background()
	var out []string
	for _, a := range args {
		if !IsRemote(a) {
			in, err := recipe.ExpandInputs([]string{a})
			if err != nil {
				return nil, err
			}
			out = append(out, in...)
			continue
		}
		in, err := expandRemote(ctx, a)
		if err != nil {
			return nil, err
		}
		out = append(out, in...)
	}
	return out, nil
}

func expandRemote(ctx context.Context, a string) ([]string, error) {
	fs, err := filesystem.New(ctx, a)
	if err != nil {
		return nil, recipe.Usagef("--input %s: %v", a, err)
	}
	defer fs.Close()
	glob := a
	if strings.HasSuffix(a, "/") {
		glob = a + "*"
	}
	if !strings.ContainsAny(glob, "*?[") {
		if _, err := fs.Size(ctx, a); err != nil {
			return nil, recipe.Usagef("--input %s: no such file (%v)", a, err)
		}
		return []string{a}, nil
	}
	names, err := fs.List(ctx, glob)
	if err != nil {
		return nil, recipe.Usagef("--input %s: %v", a, err)
	}
	var out []string
	for _, n := range names {
		if remoteReport(n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, recipe.Usagef("--input %s: no reports there (.nsys-rep, .qdrep, .sqlite)", a)
	}
	sort.Strings(out)
	return out, nil
}

// fetch makes a local copy of a remote report in dir and returns its path;
// a local path is returned as it is. The caller removes a copy (local !=
// p) when done.
func fetch(ctx context.Context, p, dir string) (string, error) {
	if !IsRemote(p) {
		return p, nil
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	defer r.Close()
	f, err := os.CreateTemp(dir, "*-"+path.Base(p))
	if err != nil {
		return "", err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("copying %s: %w", p, err)
	}
	return f.Name(), nil
}

// opener opens local reports with nsysx and remote ones from a copy in
// dir (removed once the report is open: the open file stays readable). A
// relative local path is taken relative to workDir, the launcher's working
// directory, where it was given: a worker's own working directory is
// another (the SDK harness's).
func opener(forceExport bool, dir, workDir string) recipe.Opener {
	return func(ctx context.Context, p string) (*nsysx.Profile, error) {
		if !IsRemote(p) && !filepath.IsAbs(p) && workDir != "" {
			p = filepath.Join(workDir, p)
		}
		local, err := fetch(ctx, p, dir)
		if err != nil {
			return nil, err
		}
		prof, err := nsysx.OpenWith(ctx, local, nsysx.OpenOptions{ForceExport: forceExport})
		if local != p {
			os.Remove(local)
		}
		if err != nil && local != p {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return prof, err
	}
}

// publishRemote copies the files of the local output directory dir into
// the remote directory out. An out that already holds files is written
// over only as a local one would be replaced (atomicfile.CheckListing):
// with --force-overwrite, when it is an output of nsysx or nsys that holds
// nothing else and none of the inputs.
func publishRemote(ctx context.Context, dir, out string, o atomicfile.DirOptions) error {
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return err
	}
	defer fs.Close()
	out = strings.TrimRight(out, "/")
	old, err := fs.List(ctx, out+"/*")
	if err != nil {
		return fmt.Errorf("listing %s: %w", out, err)
	}
	listing := make([]atomicfile.Entry, len(old))
	for i, n := range old {
		listing[i] = atomicfile.Entry{Name: path.Base(n), Regular: true}
	}
	manifest := func() ([]byte, error) { return filesystem.Read(ctx, fs, out+"/"+atomicfile.Manifest) }
	if err := atomicfile.CheckListing(out, o, listing, manifest); err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		if err := filesystem.Write(ctx, fs, out+"/"+e.Name(), b); err != nil {
			return fmt.Errorf("writing %s/%s: %w", out, e.Name(), err)
		}
	}
	return removeOld(ctx, fs, dir, old)
}

// removeOld removes the files of the replaced output (old, checked by
// atomicfile.CheckListing) that the new one (dir) does not have, where the
// filesystem can remove files.
func removeOld(ctx context.Context, fs filesystem.Interface, dir string, old []string) error {
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	for _, o := range old {
		if _, err := os.Lstat(filepath.Join(dir, path.Base(o))); err == nil {
			continue
		}
		if err := rm.Remove(ctx, o); err != nil {
			return fmt.Errorf("removing the old %s: %w", o, err)
		}
	}
	return nil
}

// writeFile writes b to p, a local path or one of a Beam filesystem.
func writeFile(ctx context.Context, p string, b []byte) error {
	if !IsRemote(p) {
		return os.WriteFile(p, b, 0o644)
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, p, b)
}

// readFile reads p, a local path or one of a Beam filesystem.
func readFile(ctx context.Context, p string) ([]byte, error) {
	if !IsRemote(p) {
		return os.ReadFile(p)
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, p)
}

var errNoStatus = errors.New("the pipeline finished without recording an outcome")
