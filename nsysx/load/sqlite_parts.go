package load

import (
	"context"
	"os"
	"strconv"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Loading a big table on several cores: its leaf pages cut into ranges
// decoded at once (sqlite.ScanFieldsParts), each into a rowBuilder of its
// own, the parts then appended in order to the table's builder. Decoding
// the records is most of a load (docs/stats.md's reports read a few columns
// of the big tables once).

// loadPartsMax bounds the ranges of one load; NSYSX_LOAD_PARTS sets it.
// It is 1 (every table on one core) by default, unless the load's context
// gives it spare cores (WithCores): measured on train x50 on
// the GPU machine (README, Benchmarks), 4 ranges made the big loads 0-16 %
// faster on two cores and up to 33 % on sixteen, but raised peak RSS by
// 2-50 MB (the ranges' own columns, copied into the table's at the end).
// loadPartsRows is the fewest estimated rows for which a load is cut at
// all (variables for the tests).
var (
	loadPartsMax  = EnvInt("NSYSX_LOAD_PARTS", 1)
	loadPartsRows = 1 << 16
)

type loadPartsKey struct{}

// WithLoadParts returns a context under which a Profile's big table loads
// may read up to n ranges at once even without spare cores (WithCores), at
// the cost of the ranges' own columns, copied into the table's at the end.
// `nsysx stats` and `analyze` use 2: on train x50 the kernel summaries ran
// 10-15 % faster on two cores for 4-16 MB more peak RSS.
func WithLoadParts(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, loadPartsKey{}, n)
}

// loadPartsOf is the ranges a load may read at once under ctx without
// spare cores: WithLoadParts' n, else loadPartsMax.
func loadPartsOf(ctx context.Context) int {
	if n, ok := ctx.Value(loadPartsKey{}).(int); ok && n > 0 && os.Getenv("NSYSX_LOAD_PARTS") == "" {
		return n
	}
	return loadPartsMax
}

// envInt is the integer value of the environment variable name, or def.
// EnvInt is the integer in the environment variable name, or def.
func EnvInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// loadParts loads t into b over several ranges; ok is false when the table
// is too small, or the process has one core, and nothing was read.
func (s *sqliteSource) loadParts(ctx context.Context, ts *TableSchema, t *sqlite.Table, b *rowBuilder, est int) (ok bool, err error) {
	parts := model.Cores(ctx, loadPartsOf(ctx))
	if parts < 2 || est < loadPartsRows || len(b.cs) > sqlite.MaxFields {
		return false, nil
	}
	bs := make([]*rowBuilder, parts)
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: ReleaseEvery}
	n, err := s.db.ScanFieldsParts(t, b.names, opt, parts, func(i int) func(int64, *sqlite.Fields) error {
		if bs[i] = b; i > 0 { // the first range goes straight into b
			bs[i] = newRowBuilder(ts, b.names, est/parts+est/(8*parts))
		}
		return func(rowid int64, f *sqlite.Fields) error {
			bs[i].addFields(rowid, f)
			return nil
		}
	})
	if err != nil {
		return true, err
	}
	for _, p := range bs[1:n] {
		b.appendBuilder(p)
	}
	return true, nil
}

// appendBuilder appends the rows of p, whose columns are b's, to b.
func (b *rowBuilder) appendBuilder(p *rowBuilder) {
	b.out.RowIDs = append(b.out.RowIDs, p.out.RowIDs...)
	for k, c := range b.cs {
		pc := p.cs[k]
		c.Ints = append(c.Ints, pc.Ints...)
		c.Floats = append(c.Floats, pc.Floats...)
		c.Strs = append(c.Strs, pc.Strs...)
		pc.EachNull(func(i int) { c.SetNull(b.n + i) })
		*pc = Column{}
	}
	b.n += p.n
}
