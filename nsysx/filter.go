package nsysx

// Filter restricts a report to a time window or an NVTX range, as
// `--filter-time` and `--filter-nvtx` do.
type Filter struct {
	Start, End int64
}

func (f *Filter) load(c *Ctx, table string, cols []string) (*Table, error) {
	return c.P.Load(table, cols...)
}
