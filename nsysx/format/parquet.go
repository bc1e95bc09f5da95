package format

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/nsysx/nsysx/nsysx"
)

// WriteParquet writes the visible columns of a report result as a Parquet
// file (Snappy, with the Arrow schema stored), with the same columns, types,
// raw values and metadata as WriteArrow. Parquet keeps the metadata as file
// key-value metadata, which DuckDB shows with parquet_kv_metadata() and
// pyarrow with schema.metadata.
func WriteParquet(w io.Writer, r *nsysx.Result) error {
	return writeResult(w, r, "parquet", memory.DefaultAllocator)
}
