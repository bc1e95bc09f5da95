package model

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Profile is an opened Nsight Systems export. Tables are loaded lazily, column
// by column, and kept: a report pays only for the columns it reads, and the
// next report over the same profile reuses them. A Profile is safe for
// concurrent use.
type Profile struct {
	// Path is the path as the user gave it (without a .gz or .zst suffix);
	// reports use it in their messages.
	Path string
	// Format is "sqlite", "parquetdir", "arrowdir" or "arrow" (one .arrows file).
	Format string

	src    Source
	tables map[string]*TableSchema // by lower-case name
	order  []string

	mu     sync.Mutex
	loaded map[string]*Table
	locks  map[string]*sync.Mutex

	strMu  sync.Mutex
	strTab atomic.Pointer[strTable] // set once StringIds is read or found unreadable
}

// strTable is StringIds as a map, or the error that keeps it from being read.
type strTable struct {
	m   map[int64]string
	err error
}

// NewProfile makes the profile of an export read through src (a loader's,
// package load); path is the path as the user gave it. src is closed when
// it is not an export.
func NewProfile(path, format string, src Source) (*Profile, error) {
	p := &Profile{Path: path, Format: format, src: src, tables: map[string]*TableSchema{},
		loaded: map[string]*Table{}, locks: map[string]*sync.Mutex{}}
	for _, t := range src.Schema() {
		k := Lower(t.Name)
		if _, dup := p.tables[k]; !dup {
			p.order = append(p.order, t.Name)
		}
		p.tables[k] = t
	}
	if !LooksLikeExport(src.Schema()) {
		src.Close()
		return nil, fmt.Errorf("%s: %w (no StringIds, metadata or event tables)", path, ErrNotExport)
	}
	return p, nil
}

// Close releases the file.
func (p *Profile) Close() error { return p.src.Close() }

// Tables lists the table names of the export, in export order.
func (p *Profile) Tables() []string { return append([]string(nil), p.order...) }

// Schema returns a table's schema, or nil when the export lacks it.
func (p *Profile) Schema(table string) *TableSchema { return p.tables[Lower(table)] }

// HasTable reports whether the export has the table (names are
// case-insensitive, as in SQLite).
func (p *Profile) HasTable(name string) bool { return p.tables[Lower(name)] != nil }

// HasColumn reports whether table has column.
func (p *Profile) HasColumn(table, col string) bool {
	t := p.tables[Lower(table)]
	if t == nil {
		return false
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c, col) {
			return true
		}
	}
	return false
}

// TablesMatching lists the tables whose names satisfy keep, sorted.
func (p *Profile) TablesMatching(keep func(name string) bool) []string {
	var out []string
	for _, n := range p.order {
		if keep(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Load returns the named columns of a table. Columns already loaded are
// reused. A missing table gives *MissingTableError, a missing column
// *MissingColumnError; a cancelled ctx stops the read with ctx.Err().
func (p *Profile) Load(ctx context.Context, table string, cols ...string) (*Table, error) {
	key := Lower(table)
	ts := p.tables[key]
	if ts == nil {
		return nil, &MissingTableError{Table: table}
	}
	for _, c := range cols {
		if !p.HasColumn(table, c) {
			return nil, &MissingColumnError{Table: ts.Name, Column: c}
		}
	}
	p.mu.Lock()
	lk := p.locks[key]
	if lk == nil {
		lk = &sync.Mutex{}
		p.locks[key] = lk
	}
	p.mu.Unlock()
	lk.Lock()
	defer lk.Unlock()

	p.mu.Lock()
	have := p.loaded[key]
	p.mu.Unlock()
	var need []string
	for _, c := range cols {
		if have == nil || have.Col(c) == nil {
			need = append(need, c)
		}
	}
	if have != nil && len(need) == 0 {
		return have, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := p.src.Load(ctx, ts, need)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ts.Name, err)
	}
	if have != nil {
		t = have.WithColumns(t.Columns()...)
	}
	p.mu.Lock()
	p.loaded[key] = t
	p.mu.Unlock()
	return t, nil
}

// LoadAll loads several tables concurrently (a table name followed by its
// columns per entry). Missing tables are skipped silently.
func (p *Profile) LoadAll(ctx context.Context, specs ...[]string) error {
	var wg sync.WaitGroup
	errs := make([]error, len(specs))
	for i, s := range specs {
		if !p.HasTable(s[0]) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = p.Load(ctx, s[0], s[1:]...)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// String returns StringIds[id]; ok is false when the id is absent, or when
// StringIds cannot be read (StringsErr says why). The first call loads
// StringIds under ctx.
func (p *Profile) String(ctx context.Context, id int64) (string, bool) {
	t, _ := p.Strings(ctx)
	s, ok := t[id]
	return s, ok
}

// StringsErr loads StringIds under ctx, if not yet loaded, and reports an
// error met while loading it.
func (p *Profile) StringsErr(ctx context.Context) error { _, err := p.Strings(ctx); return err }

// Strings returns StringIds, read on first use. An unreadable table's error
// is kept, but a load stopped by ctx leaves nothing behind: the next call
// (with a live context) reads the table again.
func (p *Profile) Strings(ctx context.Context) (map[int64]string, error) {
	if t := p.strTab.Load(); t != nil {
		return t.m, t.err
	}
	p.strMu.Lock()
	defer p.strMu.Unlock()
	if t := p.strTab.Load(); t != nil {
		return t.m, t.err
	}
	m, err := p.readStrings(ctx)
	if err != nil && (ctx.Err() != nil || IsCancel(err)) {
		return nil, err
	}
	p.strTab.Store(&strTable{m: m, err: err})
	return m, err
}

// IsCancel reports whether err is a cancelled or expired context's, which
// says nothing about the file: nothing derived from it may be kept.
func IsCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func (p *Profile) readStrings(ctx context.Context) (map[int64]string, error) {
	if !p.HasTable("StringIds") {
		return map[int64]string{}, nil
	}
	t, err := p.Load(ctx, "StringIds", "id", "value")
	if err != nil {
		return nil, err
	}
	id, val := t.Col("id"), t.Col("value")
	m := make(map[int64]string, t.N)
	for i := 0; i < t.N; i++ {
		if !val.IsNull(i) {
			m[id.Int(i)] = val.Str(i)
		}
	}
	return m, nil
}

// Meta returns the export metadata (META_DATA_EXPORT, or EXPORT_META_DATA in
// exports from nsys 2022).
func (p *Profile) Meta(ctx context.Context) map[string]string {
	out := map[string]string{}
	for _, tn := range []string{"EXPORT_META_DATA", "META_DATA_EXPORT"} {
		if !p.HasColumn(tn, "name") || !p.HasColumn(tn, "value") {
			continue
		}
		t, err := p.Load(ctx, tn, "name", "value")
		if err != nil {
			continue
		}
		n, v := t.Col("name"), t.Col("value")
		for i := 0; i < t.N; i++ {
			out[n.Str(i)] = v.Str(i)
		}
	}
	return out
}

// SchemaVersion is EXPORT_SCHEMA_VERSION from the metadata, or "".
func (p *Profile) SchemaVersion(ctx context.Context) string {
	return p.Meta(ctx)["EXPORT_SCHEMA_VERSION"]
}

// Base is the file name without directory and extension, for output naming.
func (p *Profile) Base() string {
	b := filepath.Base(strings.TrimRight(p.Path, "/"))
	for _, ext := range []string{".gz", ".zst", ".sqlite", ".nsys-rep", ".qdrep", ".arrows", ".arrow", ".parquet", "_pqtdir", "_arwdir"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// Source is the loader the profile reads through: reports ask it for a
// capability (RecordScanner, RowLoader, ChunkLoader) with a type assertion.
func (p *Profile) Source() Source { return p.src }

// Loaded returns the columns of table loaded so far, or nil.
func (p *Profile) Loaded(table string) *Table {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.loaded[Lower(table)]
}

var exportMarkers = []string{"stringids", "meta_data_export", "export_meta_data", "nvtx_events", "osrt_api", "target_info_gpu", "threadnames", "processes"}

// LooksLikeExport reports whether a schema has an export's tables: StringIds,
// metadata or event tables.
func LooksLikeExport(tables []*TableSchema) bool {
	have := map[string]bool{}
	for _, t := range tables {
		have[Lower(t.Name)] = true
	}
	for _, m := range exportMarkers {
		if have[m] {
			return true
		}
	}
	for k := range have {
		if strings.HasPrefix(k, "cupti_activity_kind_") || strings.HasPrefix(k, "enum_") {
			return true
		}
	}
	return false
}

// LoadedStrings returns StringIds as far as it was read: done is false when
// nothing asked for it yet (nothing is read here).
func (p *Profile) LoadedStrings() (m map[int64]string, err error, done bool) {
	if t := p.strTab.Load(); t != nil {
		return t.m, t.err, true
	}
	return nil, nil, false
}
