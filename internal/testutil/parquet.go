package testutil

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// GoldenRecipe is the path of testdata/golden/recipes/<rel>: the outputs
// nsys recipe wrote.
func GoldenRecipe(rel ...string) string {
	return filepath.Join(append([]string{Root(), "testdata", "golden", "recipes"}, rel...)...)
}

// ParquetTable reads a whole Parquet file with arrow-go's pqarrow, a reader
// independent of nsysx's own, and its key-value metadata. mem nil is the
// default allocator; the caller releases the table.
func ParquetTable(t testing.TB, path string, mem memory.Allocator) (arrow.Table, metadata.KeyValueMetadata) {
	t.Helper()
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("parquet: %v", err)
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tbl, rd.MetaData().KeyValueMetadata()
}
