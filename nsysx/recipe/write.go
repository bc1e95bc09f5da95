package recipe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// WriteOptions control Result.Write.
type WriteOptions struct {
	// DefaultName is the base of the default directory name, <base>-N;
	// "" means the recipe name (diff passes "<stats recipe>-diff").
	DefaultName string
	// WorkDir is where a default name or a relative --output is placed;
	// "" means the current directory.
	WorkDir string
	// Extra, when set, writes further files (notebooks, charts, helper
	// modules) into dir, the not yet published output directory.
	Extra func(dir string) error
	// Context, when set and done before the output is published (a
	// signal), stops the write: the temporary directory is removed,
	// nothing is published, and Write returns the context's error.
	Context context.Context
}

// ErrOutputExists is matched (errors.Is) by the error when the output
// directory exists and --force-overwrite was not given, or when it may
// not be replaced even with it (atomicfile.CheckDir).
var ErrOutputExists = atomicfile.ErrExists

// Write writes the run's output directory (docs/recipes.md §1.6) and
// returns its path: every output table as <name>.parquet (and <name>.csv
// with --csv unless the table is NoCSV), the Extra files, and
// <basename>.nsys-analysis. Everything is written into a hidden temporary
// sibling directory that is renamed into place at the end, so a failed run
// leaves no directory behind and never a partial one (a killed process may
// leave the hidden ".<name>.partial-*" sibling, never the result).
//
// An existing --output is replaced only with --force-overwrite; without it
// Write fails with ErrOutputExists. (nsys itself only warns and writes to
// the default name instead; nsysx refuses, as `nsysx stats` does, so that
// the result is never somewhere the user did not ask for.) Even with it,
// only an output directory of nsysx or nsys that holds nothing else and
// none of the run's inputs is replaced (atomicfile.CheckDir,
// docs/outputs.md); anything else fails with ErrOutputExists too.
func (r *Result) Write(wo *WriteOptions) (string, error) {
	if wo == nil {
		wo = &WriteOptions{}
	}
	if r.Recipe == nil || r.Opts == nil || r.Output == nil {
		return "", errors.New("recipe: Write needs a Result with its Recipe, Opts and Output")
	}
	dir, recorded, err := r.outputDir(wo)
	if err != nil {
		return "", err
	}
	if r.Opts.TuneGC {
		defer startWriteGC()()
	}
	err = atomicfile.Dir(dir, r.dirOptions(), func(tmp string) error {
		return r.fill(tmp, filepath.Base(dir), recorded, wo)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// outputDir resolves the directory to write and the value recorded as
// Options.output: the expanded --output, or the default <base>-N (then
// recorded as null).
func (r *Result) outputDir(wo *WriteOptions) (dir string, recorded any, err error) {
	if r.Opts.Output == "" {
		base := wo.DefaultName
		if base == "" {
			base = r.Recipe.Name
		}
		return DefaultOutput(wo.WorkDir, base), nil, nil
	}
	name, err := expandIn(wo.WorkDir, r.Opts.Output)
	if err != nil {
		return "", nil, err
	}
	dir = name
	if wo.WorkDir != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(wo.WorkDir, dir)
	}
	if err := atomicfile.CheckDir(dir, r.dirOptions()); err != nil {
		return "", nil, err
	}
	if _, err := os.Lstat(dir); err == nil && !r.Opts.ForceOverwrite { // empty: nsys refuses it too
		return "", nil, fmt.Errorf("%w: %s (pass --force-overwrite to replace it)", ErrOutputExists, dir)
	}
	return dir, name, nil
}

// dirOptions are what atomicfile.Dir may replace for this run.
func (r *Result) dirOptions() atomicfile.DirOptions {
	return atomicfile.DirOptions{Force: r.Opts.ForceOverwrite, Inputs: r.Opts.Input}
}

// startWriteGC keeps Run's collector settings (with Options.TuneGC) (startGCPercent, gcLimit)
// while the output is written: the encoders allocate fast, and with the
// defaults (GOGC=100, no limit) the heap would grow to twice the output
// frame and the encoders' state, the peak of a large trace run.
func startWriteGC() (restore func()) {
	restorePercent := startGCPercent()
	g := startGCLimit()
	g.update()
	return func() {
		g.stop()
		restorePercent()
	}
}

// fill writes every file into tmp; name is the final directory's base name.
// The tables (each with its CSV twin) and the Extra files are written at
// once, one goroutine each: a small recipe's run otherwise ends with its
// charts drawn one after the tables while the other cores wait. The error
// returned is the first in file order.
func (r *Result) fill(tmp, name string, recorded any, wo *WriteOptions) error {
	tables := r.Output.Tables
	errs := make([]error, len(tables)+1)
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() { errs[i] = r.writeTable(tmp, &tables[i]) })
	}
	if wo.Extra != nil {
		wg.Go(func() { errs[len(tables)] = wo.Extra(tmp) })
	}
	wg.Wait()
	mark("tables and extras written")
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if wo.Context != nil && wo.Context.Err() != nil {
		return wo.Context.Err()
	}
	js, err := r.AnalysisJSON(recorded)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, name+".nsys-analysis"), js, 0o644); err != nil {
		return fmt.Errorf("writing %s.nsys-analysis: %w", name, err)
	}
	return nil // atomicfile.Dir gives tmp its mode
}

// writeTable writes one output table as Parquet, and as CSV with --csv
// unless the table is NoCSV.
func (r *Result) writeTable(tmp string, t *Table) error {
	if err := writeFile(filepath.Join(tmp, t.Name+".parquet"), func(w io.Writer) error {
		if t.stream != nil {
			return pyframe.WriteParquetGroups(w, t.stream.head, t.stream.groups)
		}
		return pyframe.WriteParquet(w, t.Frame)
	}); err != nil {
		return fmt.Errorf("writing %s.parquet: %w", t.Name, err)
	}
	if r.Opts.CSV && !t.NoCSV {
		if err := writeFile(filepath.Join(tmp, t.Name+".csv"), func(w io.Writer) error {
			if t.stream != nil {
				return pyframe.WriteCSVGroups(w, t.stream.head, t.stream.chunks)
			}
			return pyframe.WriteCSV(w, t.Frame)
		}); err != nil {
			return fmt.Errorf("writing %s.csv: %w", t.Name, err)
		}
	}
	return nil
}

// writeFile creates path and writes it through a buffer, reporting the
// errors of the write, the flush and the close.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
