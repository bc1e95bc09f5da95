// Package recipe runs nsys's multi-report recipes (`nsys recipe`, Nsight
// Systems 2025.3.1) over any number of profiles and produces the tables nsys
// writes: the same Parquet files, columns, Arrow types, pandas metadata, row
// order and values.
//
// A recipe is two plain functions (see Recipe): Map turns one report into
// named frames (Part), and Reduce merges the parts of all reports, in Rank
// order, into the output tables (Output). Between them travels only plain
// data (Frame: exported slices), so the same recipes can run in the
// in-process worker pool of Run or on a distributed engine.
//
// Result.Write publishes a run as nsys does: an output directory holding
// every table as Parquet (WriteParquet: the files pandas + pyarrow write,
// pandas metadata included), optional CSV twins (WriteCSV: pandas' to_csv
// text) and the .nsys-analysis JSON, written into a hidden temporary
// directory and renamed into place, so a failed run leaves nothing.
// ReadParquet reads such files back (nsys's or ours). Tests compare
// written files with the nsys goldens through internal/pqcompare.
//
// The design notes the code follows are in docs/recipes.md of the
// repository (framework §1, recipes §2).
package recipe
