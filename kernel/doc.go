// Package kernel is the nsysx Jupyter kernel: it gives meaning to the
// messages that package wire carries (execute, complete, inspect,
// is_complete, history, comms, interrupt, shutdown, input) and runs cells
// through a pluggable Engine.
//
// An Engine executes code and writes to an Output: stdout/stderr streams
// (batched into stream messages), display_data, update_display_data,
// execute_result and clear_output, and can ask the frontend for input.
// Magics (%name args and %%name args + body) are handled by the kernel
// before the engine sees the code; engines add their own through the
// MagicRegistrar interface. See kernel/README.md for a map of the files.
package kernel
