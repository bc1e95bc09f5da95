package frontend

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/nsysx/nsysx/internal/atomicfile"
)

// The single output files of advise, compare, critical-path and the
// pprof and Perfetto exports follow the rule of stats -o (docs/outputs.md
// §2): an existing file is replaced only with --force-overwrite, never
// when it is one of the run's inputs or a directory, and the new file is
// written through a temporary that is renamed at the end, so a failed run
// leaves the old file as it was.

// fileRefusal is an existing output file that may not be replaced; it
// matches atomicfile.ErrExists (exit status 2).
type fileRefusal struct{ msg string }

func (r *fileRefusal) Error() string        { return r.msg }
func (r *fileRefusal) Is(target error) bool { return target == atomicfile.ErrExists }

// CheckOutputFile says whether a command may write the file name: ""
// and "-" (the console) and a missing file always; an existing one only
// with force, and never a directory or one of inputs (the same file under
// any name). Callers check before the work, so that a refusal costs
// nothing, and write with WriteOutputFile.
func CheckOutputFile(name string, force bool, inputs []string) error {
	if name == "" || name == "-" {
		return nil
	}
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		// A symbolic link to nothing is still the user's: replacing it
		// needs force, as an existing file does.
		if _, lerr := os.Lstat(name); lerr == nil && !force {
			return &fileRefusal{fmt.Sprintf("output %s is a broken symbolic link (pass --force-overwrite to replace it)", name)}
		}
		return nil
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return &fileRefusal{fmt.Sprintf("output %s is a directory: give a file name", name)}
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return &fileRefusal{fmt.Sprintf("output %s is the input %s: give another file name", name, in)}
		}
	}
	if !force {
		return &fileRefusal{fmt.Sprintf("output file %s exists (pass --force-overwrite to replace it)", name)}
	}
	return nil
}

// CheckOutput is CheckOutputFile for a command's parsed flags: the file
// name, --force-overwrite, and the command's FILE arguments as its inputs.
func (p *Parsed) CheckOutput(name string) error {
	force, err := p.Bool("--force-overwrite")
	if err != nil {
		return err
	}
	return CheckOutputFile(name, force, p.Args)
}

// WriteOutputFile writes name with write: to console for "" or "-",
// else through a temporary file renamed to name on success.
func WriteOutputFile(name string, console io.Writer, write func(io.Writer) error) error {
	if name == "" || name == "-" {
		return write(console)
	}
	return atomicfile.WriteFile(name, write)
}

// overwriteFileFlag is --force-overwrite of a command that writes one file.
func overwriteFileFlag() Flag {
	return Flag{Names: []string{"--force-overwrite"}, Help: "replace an existing --output file (never an input)"}
}
