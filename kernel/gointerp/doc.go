// Package gointerp is a kernel.Engine that runs Go cells with the yaegi
// interpreter (github.com/traefik/yaegi v0.16.1) and the standard library.
//
// Variables, functions, types and imports persist across cells. The value
// of a cell's last expression becomes its execute_result (see Bundle for
// how values choose their MIME types); fmt and log output go to the cell's
// streams; panics become error outputs with cell line numbers. Cells may
// mix imports, declarations and statements: the engine splits them into
// the separate evaluations yaegi needs. Interrupts cancel the cell's
// context, stop the interpreter, and make time.Sleep return early.
//
// Cells can import "nsysx/cell" for the context of the running cell
// (cell.Context), rich output (cell.Display, cell.DisplayID, cell.Update,
// cell.Clear) and input (cell.Input, cell.Password).
package gointerp
