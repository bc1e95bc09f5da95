// Command gallery draws one image of each chart of the plots package from
// the repository's test profiles, for plots/README.md:
//
//	go run ./plots/cmd/gallery            # from the repository root
//	go run ./plots/cmd/gallery -out DIR -format svg
//
// It unpacks testdata/profiles/<name>.sqlite.gz into a temporary directory,
// draws the charts listed in gallery below and writes DIR/<file>.<format>
// (default plots/gallery, PNG). The output is deterministic: running it
// again over the same profiles rewrites identical files.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

// gallery lists the images: file name, then the chart request as words
// (profile names stand for testdata/profiles/<name>.sqlite.gz).
var gallery = []struct {
	file  string
	words []string
}{
	{"kernels", []string{"kernels", "--top", "12", "train"}},
	{"api", []string{"api", "train"}},
	{"memops", []string{"memops", "sync"}},
	{"nvtx-timeline", []string{"nvtx-timeline", "--range", "iteration 12", "train"}},
	{"nvtx-timeline-ranks", []string{"nvtx-timeline", "--start", "2s", "--end", "2.6s", "rank0"}},
	{"gpu-util", []string{"gpu-util", "--bins", "40", "sync"}},
	{"gpu-util-ranks", []string{"gpu-util", "rank0", "rank1"}},
	{"nccl", []string{"nccl", "rank0", "rank1"}},
	{"iterations", []string{"iterations", "train"}},
	{"kernel-hist", []string{"kernel-hist", "train"}},
	{"compare", []string{"compare", "--by", "nvtx", "--top", "10", "train", "fixed"}},
	{"idle", []string{"idle", "train"}},
	{"stacks", []string{"stacks", "bt"}},
}

func main() {
	out := flag.String("out", filepath.Join("plots", "gallery"), "output directory")
	data := flag.String("testdata", filepath.Join("testdata", "profiles"), "directory of the gzipped test profiles")
	format := flag.String("format", "png", "png, svg or json (Vega-Lite)")
	flag.Parse()
	if err := run(*out, *data, *format); err != nil {
		fmt.Fprintln(os.Stderr, "gallery:", err)
		os.Exit(1)
	}
}

func run(out, data, format string) error {
	tmp, err := os.MkdirTemp("", "nsysx-gallery-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	opened := map[string]*nsysx.Profile{}
	for _, g := range gallery {
		def, opts, names, err := plots.Parse(g.words)
		if err != nil {
			return err
		}
		var ps []*nsysx.Profile
		for _, n := range names {
			if opened[n] == nil {
				path, err := gunzip(filepath.Join(data, n+".sqlite.gz"), filepath.Join(tmp, n+".sqlite"))
				if err != nil {
					return err
				}
				if opened[n], err = nsysx.Open(path); err != nil {
					return err
				}
			}
			ps = append(ps, opened[n])
		}
		c, err := def.Draw(context.Background(), ps, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", g.file, err)
		}
		var b bytes.Buffer
		switch format {
		case "png":
			err = c.PNG(&b)
		case "svg":
			err = c.SVG(&b)
		case "json":
			var js []byte
			js, err = c.VegaLite()
			b.Write(js)
		default:
			return fmt.Errorf("unknown format %q", format)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", g.file, err)
		}
		path := filepath.Join(out, g.file+"."+format)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Printf("%-44s nsysx plot %s\n", path, strings.Join(quote(g.words), " "))
	}
	return nil
}

func gunzip(src, dst string) (string, error) {
	f, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", src, err)
	}
	w, err := os.Create(dst)
	if err != nil {
		return "", err
	}
	defer w.Close()
	if _, err := io.Copy(w, z); err != nil {
		return "", err
	}
	return dst, nil
}

func quote(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w
		if strings.ContainsAny(w, " \"'") {
			out[i] = "'" + w + "'"
		}
	}
	return out
}
