// Package beamrecipe runs nsysx's recipes (package recipe) as Apache Beam
// pipelines, for jobs whose reports outgrow one machine: reading and mapping
// each report is a DoFn that calls the recipe's own Map, the parts are
// gathered into one call of the recipe's own Reduce, and the same writers
// produce the same output directory as the in-process runner
// (docs/recipes.md §1.6). No recipe logic lives here.
//
// Parts cross every Beam boundary gob-encoded as []byte (codec.go): Beam's
// reflection coder zeroes unexported fields at a shuffle while fused stages
// keep them, so nothing is left to it. Inputs and outputs may be local
// paths or paths of any registered Beam filesystem (gs://, s3://, memfs://).
//
// This package and cmd/nsysx-beam are the only ones that link Beam; the
// nsysx command does not.
package beamrecipe
