package model

// Forget drops the loaded columns of the named tables (of every loaded
// table when none is named) from the profile, so that their memory goes
// once the caller holds no slice of them: a map step that has computed
// what it needs from big tables (a recipe's projection) frees them before
// its next step instead of when the profile closes. A later Load reads
// them again; StringIds, read once for String, is kept.
func (p *Profile) Forget(tables ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(tables) == 0 {
		clear(p.loaded)
		return
	}
	for _, t := range tables {
		delete(p.loaded, Lower(t))
	}
}
