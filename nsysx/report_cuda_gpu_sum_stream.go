package nsysx

import (
	"errors"
	"strings"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// errStreamOff stops a streamed scan whose rows need what a load does (a
// value to convert, a duration that overflows): the caller loads instead.
var errStreamOff = errors.New("stream: load the table instead")

// intStream reports whether cols of table can be streamed straight from a
// SQLite export as a load would give them: no filter, every column present
// and INTEGER in the schema, none of them loaded already (reusing the
// loaded columns is cheaper). It returns the export's scan.
func (c *Ctx) intStream(table string, cols ...string) (directScan, bool) {
	src, ok := c.P.src.(*sqliteSource)
	if !ok || c.Filter != nil {
		return directScan{}, false
	}
	ts := c.P.tables[lower(table)]
	c.P.mu.Lock()
	have := c.P.loaded[lower(table)]
	c.P.mu.Unlock()
	for _, col := range cols {
		isInt := false
		for j, name := range ts.Columns {
			if strings.EqualFold(name, col) {
				isInt = ts.Types[j] == Int
			}
		}
		if !isInt || (have != nil && have.Col(col) != nil) {
			return directScan{}, false
		}
	}
	d := directScan{db: src.db, t: src.db.Table(ts.Name), every: loadReleaseEvery}
	return d, d.t != nil
}

// streamAPICalls is addAPICalls over the runtime table read row by row,
// without loading it (no columns built, copied nor kept). ns must be empty;
// ok is false, and ns left empty, when the scan does not apply or a row
// needs the load's conversions: then call addAPICalls.
func (ns *namedSamples) streamAPICalls(c *Ctx) (ok bool) {
	d, ok := c.intStream(tRuntime, "start", "end", "nameId")
	if !ok || len(ns.keys) > 0 {
		return false
	}
	byID := map[int64]*Agg{}
	err := d.run(c.ctx(), []string{"start", "end", "nameId"}, func(_ int64, f *sqlite.Fields) error {
		v, vok, err := streamDuration(f)
		if err != nil {
			return err
		}
		if f.Null&4 != 0 {
			ns.add(stripV(Null), "CUDA_API", v, vok)
			return nil
		}
		a := byID[f.I[2]]
		if a == nil {
			a = ns.group(stripV(c.strV(f.I[2])), "CUDA_API")
			byID[f.I[2]] = a
		}
		addSample(a, v, vok)
		return nil
	})
	if err != nil {
		*ns = *newNamedSamples()
		return false
	}
	return true
}

// streamDuration is end - start of a streamed row whose fields 0, 1 and 2
// are start, end and an id, as the load and dur give it (ok false when
// start or end is NULL), or errStreamOff when one of the three needs the
// load's conversions (not an INTEGER) or the duration overflows (subInt).
func streamDuration(f *sqlite.Fields) (v int64, ok bool, err error) {
	if (f.Text|f.Blob|f.Real)&7 != 0 {
		return 0, false, errStreamOff
	}
	v, ok = f.I[1]-f.I[0], f.Null&3 == 0
	if ok && (v < f.I[1]) != (f.I[0] > 0) {
		return 0, false, errStreamOff
	}
	return v, ok, nil
}

// strV is StringIds[id] as a value (NULL when absent), as Str gives it.
func (c *Ctx) strV(id int64) Value {
	if s, ok := c.String(id); ok {
		return TextV(s)
	}
	return Null
}
