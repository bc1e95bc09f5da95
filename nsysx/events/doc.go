// Package events is the library's view of a profile as typed events: the
// raw table names (tables.go), and the views every analysis reads instead
// of the export's tables (GPU operations, sessions, threads, ...). It
// imports the model and nothing above it.
package events
