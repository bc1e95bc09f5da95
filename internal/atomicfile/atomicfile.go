// Package atomicfile writes outputs so that their final name holds either
// nothing or the whole result: a file is written under a hidden temporary
// name in the same directory and renamed into place when complete, a
// directory is filled as a hidden temporary sibling and renamed at the
// end. An interrupted or failed run leaves at most the hidden temporary
// (".NAME.partial-*"), never a truncated file or half a directory under
// the name asked for; a temporary left by a killed run is removed by a
// later run once it is stale (RemoveStale). Every output that nsysx writes
// goes through here: `stats -o`, `export`, `plot -o`, recipe output
// directories, the kernel's files.
//
// What an existing directory may be replaced with (--force-overwrite) is
// decided by CheckDir (replace.go): only an output directory of nsysx or
// nsys, never one that holds an input or files nsysx did not write.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes path with write, through a temporary file in path's
// directory that is renamed to path on success and removed on failure.
// An existing path is replaced (callers apply their overwrite rule
// first); its mode is a plain os.Create's, 0666 less the umask.
func WriteFile(path string, write func(io.Writer) error) error {
	RemoveStale(filepath.Dir(path), filepath.Base(path), "", StaleAfter)
	f, err := CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // gone after a successful rename
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	return err
}

// Dir makes the directory dir with fill, which writes into a temporary
// sibling directory that is renamed to dir when fill succeeds, and
// removed when it fails. Dir adds the manifest (Manifest) that marks the
// directory as nsysx's. A missing or empty dir is replaced; any other is
// replaced only as CheckDir allows, which is checked before fill runs and
// again before the old directory is moved away.
func Dir(dir string, o DirOptions, fill func(tmp string) error) error {
	if err := CheckDir(dir, o); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	RemoveStale(parent, filepath.Base(dir), "", StaleAfter)
	tmp, err := MkdirTemp(parent, "."+filepath.Base(dir)+".partial-*")
	if err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := writeManifest(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := publish(tmp, dir, o); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// publish renames tmp to dir. An existing empty dir is replaced; any other
// only as CheckDir allows: it is first moved aside, restored if the rename
// fails, removed after.
func publish(tmp, dir string, o DirOptions) error {
	if err := CheckDir(dir, o); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("checking %s: %w", dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("publishing %s: %w", dir, err)
		}
		return nil
	}
	if st.IsDir() && os.Remove(dir) == nil { // empty: the rename replaces it
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("publishing %s: %w", dir, err)
		}
		return nil
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return fmt.Errorf("replacing %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return fmt.Errorf("replacing %s: %w", dir, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("removing the old %s: %w", dir, err)
	}
	return nil
}
