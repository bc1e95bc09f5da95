package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/capture"
)

// nsysProfile is %nsys profile [nsys profile flags] -- COMMAND: it records
// with the installed nsys (output streamed into the cell), exports, opens
// the report and binds it as the session's profile. Without nsys it says so
// as ordinary output, so that a notebook goes on with a recorded profile.
func (e *Engine) nsysProfile(ctx context.Context, args []string, out kernel.Output) error {
	plan, err := capture.Parse(args, ".", time.Now())
	if err != nil {
		return usageErr("%%nsys profile: %v", err)
	}
	rep, err := capture.Run(ctx, plan, out.Stdout())
	if errors.Is(err, capture.ErrNoNsys) {
		fmt.Fprintf(out.Stdout(), "%%nsys profile: %v, so nothing was recorded.\nTo record: %s.\n", err, capture.Hint)
		return nil
	}
	if err != nil {
		return kernel.Errorf("ProfileError", "%v", err)
	}
	p, err := interruptible(ctx, &e.bg, func() (*nsysx.Profile, error) { return e.profiles.get(ctx, rep) })
	if err != nil {
		return kernel.Errorf("OpenError", "%v", err)
	}
	name := VarName(rep)
	if err := e.bindProfile(ctx, name, p); err != nil {
		return err
	}
	return out.Display(kernel.Display{Data: ProfileBundle(ctx, p, name)})
}
