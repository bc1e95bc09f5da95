package nsysxengine

import (
	"context"
	"go/token"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
)

const openUsage = "%open FILE [as NAME]"

const openHelp = `Open a profile and bind it to the Go variable NAME (default: from the file
name, e.g. train for train.sqlite.gz) as a *nsysx.Profile. FILE is a .sqlite,
a compressed .sqlite.gz or .sqlite.zst (decompressed once into the nsysx cache), a .nsys-rep, a Parquet or
Arrow directory export, or "sample" (the profile built into nsysx). The
profile is cached: %nsys, %plot and %%sql without a FILE use the one opened last.`

// magicOpen is %open FILE [as NAME].
func (e *Engine) magicOpen(ctx context.Context, args []string, _ string, out kernel.Output) error {
	var file, name string
	switch {
	case len(args) == 1:
		file, name = args[0], VarName(args[0])
	case len(args) == 3 && args[1] == "as":
		file, name = args[0], args[2]
	default:
		return usageErr("usage: %s", openUsage)
	}
	if !token.IsIdentifier(name) || token.IsKeyword(name) || name == "_" {
		return usageErr("%%open: %q is not a Go variable name", name)
	}
	p, err := interruptible(ctx, &e.bg, func() (*nsysx.Profile, error) { return e.profiles.get(ctx, file) })
	if err != nil {
		return kernel.Errorf("OpenError", "%v", err)
	}
	if err := e.bindProfile(ctx, name, p); err != nil {
		return err
	}
	return out.Display(kernel.Display{Data: ProfileBundle(ctx, p, name)})
}

// resolve finds the profile an argument names: a name bound by %open, a
// cell variable holding a *nsysx.Profile, or a file to open.
func (e *Engine) resolve(ctx context.Context, arg string) (*nsysx.Profile, error) {
	e.profiles.mu.Lock()
	p, ok := e.profiles.bound[arg]
	e.profiles.mu.Unlock()
	if ok && p != nil {
		return p, nil
	}
	if token.IsIdentifier(arg) {
		if v, ok := e.Global(arg); ok && v.CanInterface() {
			if p, ok := v.Interface().(*nsysx.Profile); ok && p != nil {
				return p, nil
			}
		}
	}
	return e.profiles.lookup(ctx, arg)
}
