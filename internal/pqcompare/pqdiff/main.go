// Command pqdiff compares two recipe output directories: the same set of
// Parquet files, each equal by pqcompare.Files (schema, pandas metadata,
// every value). Used by scripts/bench-recipes.sh to check that nsysx and
// nsys wrote the same tables. Exit 0 when equal, 1 with the differences.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/nsysx/nsysx/internal/pqcompare"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pqdiff WANT_DIR GOT_DIR")
		os.Exit(2)
	}
	if err := compareDirs(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "pqdiff:", err)
		os.Exit(1)
	}
}

func compareDirs(want, got string) error {
	w, err := parquetNames(want)
	if err != nil {
		return err
	}
	g, err := parquetNames(got)
	if err != nil {
		return err
	}
	if fmt.Sprint(w) != fmt.Sprint(g) {
		return fmt.Errorf("files differ: %s has %v, %s has %v", want, w, got, g)
	}
	if len(w) == 0 {
		return fmt.Errorf("no Parquet files in %s", want)
	}
	for _, n := range w {
		if err := pqcompare.Files(filepath.Join(want, n), filepath.Join(got, n)); err != nil {
			return err
		}
	}
	return nil
}

func parquetNames(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		return nil, err
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	sort.Strings(m)
	return m, nil
}
