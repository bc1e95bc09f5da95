package nsysxengine

import (
	"context"
	"fmt"
	"go/token"
	"strings"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
)

const sqlUsage = "%%sql [FILE|NAME] [as VAR]"

const sqlHelp = `Run the cell's SQL query on a SQLite export and show the rows as a table.
FILE is a .sqlite or .sqlite.gz; NAME a profile bound by %open or held by a
cell variable; without either, the profile opened last. The database is opened
read-only (immutable); only SELECT, WITH, VALUES and EXPLAIN statements run,
one per cell. "as VAR" also binds all the rows to the Go variable VAR as a
*nsysx.Result (Cols, Row(i), Col("name")...). Tables and columns complete
with Tab.
A cell variable holding a *nsysx.Result (a report, a table method's output,
rows bound by "as VAR") or a recipe table (*recipe.Frame) is a table too, named by the variable, with the
columns' labels as column names ("Total Time"): SELECT "Name", "Avg" FROM k
WHERE "Instances" > 10. Without a profile the query sees the results alone.`

// magicSQL is %%sql.
func (e *Engine) magicSQL(ctx context.Context, args []string, body string, out kernel.Output) error {
	var target, bind string
	switch {
	case len(args) == 0:
	case len(args) == 1:
		target = args[0]
	case len(args) == 2 && args[0] == "as":
		bind = args[1]
	case len(args) == 3 && args[1] == "as":
		target, bind = args[0], args[2]
	default:
		return usageErr("usage: %s", sqlUsage)
	}
	if bind != "" && (!token.IsIdentifier(bind) || token.IsKeyword(bind)) {
		return usageErr("%%%%sql: %q is not a Go variable name", bind)
	}
	tables := e.resultTables(body)
	file, err := e.sqlFile(ctx, target)
	if err != nil && !(target == "" && len(tables) > 0) {
		return err
	}
	keep := e.TableOptions().MaxRows
	if bind != "" {
		keep = -1
	}
	res, total, err := QueryResults(ctx, file, body, keep, tables)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return kernel.Errorf("SQLError", "%v", err)
	}
	if bind != "" {
		e.profiles.mu.Lock()
		e.profiles.tables[bind] = res
		e.profiles.mu.Unlock()
		code := fmt.Sprintf("%s := %s.BoundResult(%q)", bind, bindName, bind)
		if err := e.Engine.Execute(ctx, code, kernel.TextOutput{W: discard{}}); err != nil {
			return fmt.Errorf("binding %s: %w", bind, err)
		}
	}
	return out.Display(kernel.Display{Data: resultBundle(res, total, e.TableOptions())})
}

// sqlFile finds the SQLite file of a %%sql target.
func (e *Engine) sqlFile(ctx context.Context, target string) (string, error) {
	var p *nsysx.Profile
	var err error
	switch {
	case target == "":
		if p = e.profiles.lastOpened(); p == nil {
			return "", usageErr("%%%%sql: no profile: give a FILE or NAME, or %%open one first")
		}
	case strings.HasSuffix(strings.ToLower(target), ".gz"):
		f, err := e.profiles.unpacked(ctx, target)
		if err != nil {
			return "", kernel.Errorf("OpenError", "%v", err)
		}
		return f, nil
	case token.IsIdentifier(target):
		if p, err = e.resolve(ctx, target); err != nil {
			return "", kernel.Errorf("OpenError", "%v", err)
		}
	default:
		return target, nil
	}
	if p.Format != "sqlite" {
		return "", usageErr("%%%%sql: %s is a %s export, not SQLite", p.Path, p.Format)
	}
	if f := e.profiles.fileOf(p); f != "" {
		return f, nil
	}
	if p.Path == nsysx.SampleName {
		return "", usageErr("%%%%sql: the sample profile has no file; use ../testdata/profiles/sync.sqlite.gz or another export")
	}
	return p.Path, nil
}
