package nsysxengine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/stackprof"
)

// nsysExportPprof is %nsys export -t pprof -o BASE [FILE|NAME]: BASE.pb.gz,
// GPU kernel time by launching call stack, as the CLI writes it. A profile
// without call stacks prints the SKIPPED line.
func (e *Engine) nsysExportPprof(ctx context.Context, p *parsedArgs, out kernel.Output) error {
	base := p.Last("--output")
	if base == "" {
		return usageErr("-o BASE is required (writes BASE.pb.gz)")
	}
	if p.Last("--tables") != "" {
		return usageErr("--tables applies to -t parquet and -t arrow only")
	}
	if err := checkOutput(p, base+".pb.gz"); err != nil {
		return err
	}
	prof, input, err := e.oneInput(ctx, p)
	if err != nil {
		return err
	}
	name, err := stackprof.WriteFile(ctx, prof, base, nsysx.StackOptions{Kernels: true})
	var se *stackprof.SkippedError
	if errors.As(err, &se) {
		fmt.Fprintln(out.Stdout(), se.Error())
		return nil
	}
	if err != nil {
		return kernel.Errorf("OSError", "%v", err)
	}
	if quiet, _ := p.Bool("--quiet"); !quiet {
		return out.Display(kernel.Display{Data: DoneBundle(fmt.Sprintf("wrote %s (GPU kernel time by launching call stack of %s)", name, input))})
	}
	return nil
}
