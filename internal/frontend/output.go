package frontend

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Args is nsys's "start=..:end=..:base" after a report's name: the
// filter's words, then the report's options.
func (pl *Plan) Args(j Job) []string {
	var a []string
	if pl.Filter != nil {
		a = append(a, pl.Filter.Args()...)
	}
	for _, kv := range j.Opts {
		if kv.Value != "" {
			a = append(a, kv.Key+"="+kv.Value)
		} else {
			a = append(a, kv.Key)
		}
	}
	return a
}

// ArgText is Args as nsys prints it after the report name: "(a:b)", or
// "" without arguments.
func (pl *Plan) ArgText(j Job) string {
	if a := pl.Args(j); len(a) > 0 {
		return "(" + strings.Join(a, ":") + ")"
	}
	return ""
}

// OutName is the file a job writes for input in (opened as prof) in a run
// over nInputs inputs: BASE_<report>[_<arg>...].<ext>, where BASE is the
// input's name for "-o .", and -o BASE gets _<profile> when there are
// several inputs.
func (pl *Plan) OutName(j Job, prof *nsysx.Profile, in string, nInputs int) string {
	base := j.Out
	if base == "." {
		base = strings.TrimSuffix(prof.Path, filepath.Ext(prof.Path))
		if prof.Format != "sqlite" {
			base = filepath.Join(filepath.Dir(in), prof.Base())
		}
	} else if nInputs > 1 {
		base += "_" + prof.Base()
	}
	parts := []string{base, j.Report.Name}
	for _, a := range pl.Args(j) {
		parts = append(parts, strings.ReplaceAll(a, "/", "-"))
	}
	return strings.Join(parts, "_") + format.Ext(j.Format.Name)
}

// WriteResult writes res to the file name in format f, through a
// temporary file renamed into place, so that an interrupted run leaves
// nothing under name. A skipped result writes an empty file ("[ ]" for
// JSON), as nsys does. When ctx is done the write stops, and fails.
func WriteResult(ctx context.Context, name string, res *nsysx.Result, f format.Spec) error {
	return atomicfile.WriteFile(name, func(w io.Writer) error {
		bw := bufio.NewWriterSize(ctxWriter{ctx, w}, 1<<16)
		var err error
		switch {
		case res.Skipped != "":
			if f.Name == "json" {
				_, err = bw.WriteString("[\n]\n")
			}
		case f.Name == "arrow":
			err = format.WriteArrow(bw, res)
		case f.Name == "parquet":
			err = format.WriteParquet(bw, res)
		default:
			err = format.Write(bw, res, f)
		}
		if err != nil {
			return err
		}
		return bw.Flush()
	})
}

// State is nsys's word for a written file: PROCESSED, or PROCESSED (EMPTY
// RESULTS) for a skipped or empty result.
func State(res *nsysx.Result) string {
	if res.Skipped != "" || res.Len() == 0 {
		return "PROCESSED (EMPTY RESULTS)"
	}
	return "PROCESSED"
}

// ctxWriter fails once ctx is done, so that an interrupt stops a write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}
