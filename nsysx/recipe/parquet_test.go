package recipe

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe/internal/pqcompare"
)

// goldenParquet lists every Parquet file nsys wrote in the recipe goldens.
func goldenParquet(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(testutil.Root(), "testdata", "golden", "recipes")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("no golden parquet files under %s: %v", root, err)
	}
	return out
}

func writeFrame(t *testing.T, f *Frame) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteParquet(&buf, f); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "out.parquet")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParquetRoundTripGoldens reads every nsys golden, writes it again and
// requires pqcompare to find no difference: the proof that WriteParquet
// writes what pandas + pyarrow write.
func TestParquetRoundTripGoldens(t *testing.T) {
	files := goldenParquet(t)
	for _, g := range files {
		rel, _ := filepath.Rel(filepath.Join(testutil.Root(), "testdata", "golden", "recipes"), g)
		t.Run(rel, func(t *testing.T) {
			f, err := ReadParquet(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := pqcompare.Files(g, writeFrame(t, f)); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("%d golden parquet files round-tripped", len(files))
}
