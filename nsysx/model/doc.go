// Package model is the data model every analysis reads: Profile (an opened
// export's schema, columns loaded lazily and cached by Load/LoadAll/LoadRows,
// StringIds, metadata), Table and Column (typed vectors with NULL masks),
// Value and Kind (Python-style number text, SQLite's round(x,1) and
// ordering), GlobalTid (a globalTid's PID and TID), and the Source
// interface a loader implements with its optional capabilities
// (RecordScanner, RowLoader, ChunkLoader). It reads no file itself: the
// loaders (package load) do.
package model
