// Package critpath builds the dependency graph of one profile's host
// threads and GPU streams (API calls and the host time between them,
// launches by correlation id, stream order, host synchronisations, event
// waits across streams, CUDA graph executions), replays it with the
// measured durations, walks the critical path of each iteration and
// predicts what changes would do (what-if). docs/critical-path.md
// describes the model.
package critpath
