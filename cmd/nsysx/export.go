package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/timeline"
)

var exportFlags = frontend.Export()

const exportUsage = "Usage: nsysx export -t parquet|arrow [--tables REGEX] -o DIR FILE\n" +
	"       nsysx export -t perfetto [--gzip] [--filter-time A/B | --filter-nvtx RANGE] -o BASE FILE\n" +
	"       nsysx export -t pprof -o BASE FILE\n\n"

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	p, err := parseArgs("export", args, exportFlags, nil)
	if err != nil {
		return fail(stderr, "export", err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "%s%s", exportUsage, frontend.Help(exportFlags))
		return 0
	}
	if p.Last("--type") == "pprof" {
		return exportPprof(ctx, p, stderr)
	}
	if err := frontend.CheckExport(p); err != nil {
		return fail(stderr, "export", err)
	}
	typ, out := p.Last("--type"), p.Last("--output")
	if out == "" {
		return fail(stderr, "export", usageErr("-o %s is required", map[bool]string{true: "BASE", false: "DIR"}[typ == "perfetto"]))
	}
	filter, err := frontend.Filter(p)
	if err != nil {
		return fail(stderr, "export", err)
	}
	re := regexp.MustCompile("")
	if t := p.Last("--tables"); t != "" {
		if re, err = regexp.Compile(t); err != nil {
			return fail(stderr, "export", usageErr("--tables: %v", err))
		}
	}
	gz, err := p.Bool("--gzip")
	if err != nil {
		return fail(stderr, "export", err)
	}
	if typ == "perfetto" { // one file: checked before the profile is read
		path, _ := timeline.OutputPath(out, gz)
		if err := p.CheckOutput(path); err != nil {
			return fail(stderr, "export", err)
		}
	}
	prof, o, err := openOne(ctx, p, stderr)
	if err != nil {
		return fail(stderr, "export", err)
	}
	defer prof.Close()
	if typ == "perfetto" {
		return exportPerfetto(ctx, prof, out, gz, filter, o.quiet, stderr)
	}
	overwrite, err := p.Bool("--force-overwrite")
	if err != nil {
		return fail(stderr, "export", err)
	}
	bar := newProgress(stderr, "exporting tables", o.quiet)
	inputs := append(slices.Clone(p.Args), prof.Path)
	err = atomicfile.Dir(out, atomicfile.DirOptions{Force: overwrite, Inputs: inputs}, func(tmp string) error {
		if err := nsysx.ExportTables(ctx, prof, tmp, typ, re, bar.update); err != nil {
			return err
		}
		return ctx.Err() // interrupted: publish nothing
	})
	bar.done()
	if err != nil {
		return fail(stderr, "export", err)
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "wrote %s\n", tablesSummary(out))
	}
	return 0
}

// tablesSummary says what an export directory holds: "DIR: 3 tables
// (.parquet, 1.2 MB)".
func tablesSummary(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return dir
	}
	var n, size int64
	ext := ""
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			n++
			size += fi.Size()
			ext = filepath.Ext(e.Name())
		}
	}
	return fmt.Sprintf("%s: %d tables (%s, %.1f MB)", dir, n, ext, float64(size)/1e6)
}

// exportPerfetto writes the timeline; a filter that cannot apply (an NVTX
// range that is not there) is nsys's SKIPPED outcome: a message, no file.
func exportPerfetto(ctx context.Context, prof *nsysx.Profile, base string, gz bool, f *nsysx.Filter, quiet bool, stderr io.Writer) int {
	path, st, err := timeline.ExportPerfetto(ctx, prof, base, gz, f)
	var skip *nsysx.SkipError
	if errors.As(err, &skip) {
		fmt.Fprintf(stderr, "%s: %v (no trace written)\n", prof.Path, err)
		return 0
	}
	if err != nil {
		return fail(stderr, "export", err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "wrote %s: %s\n", path, st.Summary())
	}
	return 0
}
