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
// This package is the runner and its framework: the Recipe model and the
// registry (Register, Lookup, List), nsys's recipe command line (ParseArgs,
// Front, Help), input expansion, the bounded worker pool (Run, and the steps
// NewReports, PrepareReports, MapReport and Finish that nsysx-beam reuses),
// the reduce helpers every recipe uses (StatsPart, StatsReduce, ConcatRanks,
// Aggregate), the output directory and its .nsys-analysis file. The recipes
// themselves live in the sub-packages and register here; the runner never
// imports them. A program that runs recipes by name imports recipe/all:
//
//   - recipe/pyframe: Frame and Column (aliased here), pandas' describe, the
//     Parquet and CSV files pandas + pyarrow write (WriteParquet, ReadParquet,
//     WriteCSV);
//   - recipe/composite: the typed event tables the recipes read;
//   - recipe/recipes: nsys's recipes, one file per recipe;
//   - recipe/all: imports every recipe package for its registrations.
//
// Result.Write publishes a run as nsys does: an output directory holding
// every table as Parquet, optional CSV twins and the .nsys-analysis JSON,
// written into a hidden temporary directory and renamed into place, so a
// failed run leaves nothing; ReadDir reads one back. Library code changes
// no process-wide setting: only with Options.TuneGC (set by the commands)
// do Run and Write tune the Go collector.
//
// The design notes the code follows are in docs/recipes.md of the
// repository (framework §1, recipes §2).
package recipe
