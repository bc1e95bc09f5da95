package report

// SkipNoStrings is the SKIPPED result of a profile without names: its
// StringIds table absent or empty (events.NamesMissing). A table that cannot
// be read fails the report later, when a name is looked up.
func (c *Ctx) SkipNoStrings() (*Result, bool) {
	if msg := noStrings(c.Context, c.P); msg != "" {
		r, _ := c.Skip(msg)
		return r, true
	}
	return nil, false
}

// EnumLabels maps an ENUM table's ids to labels.
func (c *Ctx) EnumLabels(table string) (map[int64]string, error) {
	t, err := c.LoadRaw(table, "id", "label")
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for i := 0; i < t.N; i++ {
		out[t.Col("id").Int(i)] = t.Col("label").Str(i)
	}
	return out, nil
}
