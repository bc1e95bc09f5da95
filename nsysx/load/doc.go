// Package load opens Nsight Systems exports as model.Source values: SQLite
// files through the page reader (nsysx/internal/sqlite, imported here
// alone) with the streamed, gated and ranged scans as capabilities,
// Parquet and Arrow directories and .arrows streams, .sqlite.gz/.zst
// (decompressed once into the cache) and .nsys-rep (exported once with the
// installed nsys). Open picks the loader; OpenProfile also reads the
// model's profile.
package load
