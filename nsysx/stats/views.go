package stats

import "github.com/nsysx/nsysx/nsysx/events"

// The views the reports read their events through: the event layer's
// views under the report's filter (Ctx.View for the other tables). A
// report never loads a table that the filter restricts directly; tables
// the filter leaves whole (names, enums, MPI ranks) are read with
// Ctx.LoadRaw.

func kernels(c *Ctx) *events.View     { return events.Kernels(c.Context, c.P, c.Filter) }
func memcpys(c *Ctx) *events.View     { return events.Memcpys(c.Context, c.P, c.Filter) }
func memsets(c *Ctx) *events.View     { return events.Memsets(c.Context, c.P, c.Filter) }
func apiCalls(c *Ctx) *events.View    { return events.CUDAAPICalls(c.Context, c.P, c.Filter) }
func graphTraces(c *Ctx) *events.View { return events.GraphExecs(c.Context, c.P, c.Filter) }
