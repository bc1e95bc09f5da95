// Package atomicfile writes outputs so that their final name holds either
// nothing or the whole result: a file is written under a hidden temporary
// name in the same directory and renamed into place when complete, a
// directory is filled as a hidden temporary sibling and renamed at the
// end. An interrupted or failed run leaves at most the hidden temporary
// (".NAME.partial-*"), never a truncated file or half a directory under
// the name asked for. Every output that nsysx writes goes through here:
// `stats -o`, `export`, `plot -o`, recipe output directories, the
// kernel's files.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned (wrapped) when an output exists and overwriting
// was not asked for.
var ErrExists = errors.New("output directory exists")

// WriteFile writes path with write, through a temporary file in path's
// directory that is renamed to path on success and removed on failure.
// An existing path is replaced (callers apply their overwrite rule
// first); its mode is 0644.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // gone after a successful rename
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	return err
}

// Dir makes the directory dir with fill, which writes into a temporary
// sibling directory that is renamed to dir when fill succeeds, and
// removed when it fails. An existing dir that is not empty is replaced
// only with force; without it Dir fails with ErrExists before fill runs.
// An empty dir is replaced.
func Dir(dir string, force bool, fill func(tmp string) error) error {
	if !force && !emptyOrMissing(dir) {
		return fmt.Errorf("%w and is not empty: %s (pass --force-overwrite to replace it)", ErrExists, dir)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".partial-")
	if err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if !force {
		os.Remove(dir) // empty (checked above): the rename replaces it
	}
	if err := Publish(tmp, dir, force); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// emptyOrMissing says whether dir does not exist or is an empty directory.
func emptyOrMissing(dir string) bool {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
}

// Publish renames tmp to dir. An existing dir is replaced only with force:
// it is first moved aside, restored if the rename fails, removed after.
func Publish(tmp, dir string, force bool) error {
	if _, err := os.Lstat(dir); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checking %s: %w", dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("publishing %s: %w", dir, err)
		}
		return nil
	}
	if !force {
		return fmt.Errorf("%w: %s (pass --force-overwrite to replace it)", ErrExists, dir)
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
