package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/engineproc"
	"github.com/nsysx/nsysx/kernel/nsysxengine"
)

// kernelName is the kernelspec name Jupyter lists (`jupyter kernelspec list`).
const kernelName = "nsysx"

const kernelUsage = `Usage:
  nsysx kernel install [--user | --sys-prefix | --prefix DIR]
      write the Jupyter kernelspec "nsysx" (display name "nsysx (Go)"):
        --user        ~/.local/share/jupyter/kernels/nsysx (default)
        --sys-prefix  <sys.prefix of /usr/bin/python3>/share/jupyter/kernels/nsysx
        --prefix DIR  DIR/share/jupyter/kernels/nsysx (then JUPYTER_PATH=DIR/share/jupyter)
  nsysx kernel -f CONNECTION_FILE
      run the kernel (Jupyter does this, from the kernelspec's argv)
`

// runKernel implements `nsysx kernel`.
func runKernel(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stdout
		if len(args) == 0 {
			w = stderr
		}
		io.WriteString(w, kernelUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "install" {
		return kernelInstall(args[1:], stdout, stderr)
	}
	if len(args) == 1 && args[0] == engineCommand {
		return serveEngine(stderr)
	}
	conn := ""
	switch {
	case len(args) == 2 && (args[0] == "-f" || args[0] == "--connection-file"):
		conn = args[1]
	case len(args) == 1 && strings.HasPrefix(args[0], "--connection-file="):
		conn = strings.TrimPrefix(args[0], "--connection-file=")
	case len(args) == 1 && strings.HasPrefix(args[0], "-f="):
		conn = strings.TrimPrefix(args[0], "-f=")
	default:
		return fail(stderr, "kernel", usageErr("unknown arguments %q\n%s", strings.Join(args, " "), kernelUsage))
	}
	return serveKernel(ctx, conn, stderr)
}

// serveKernel runs the kernel until Jupyter shuts it down. SIGINT is
// ignored (interrupt_mode is "message": interrupts arrive on the control
// channel); SIGTERM stops the kernel.
func serveKernel(ctx context.Context, conn string, stderr io.Writer) int {
	signal.Ignore(syscall.SIGINT)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	exe, err := os.Executable()
	if err != nil {
		return fail(stderr, "kernel", err)
	}
	eng, err := engineproc.Start(engineproc.Options{
		Command: func() *exec.Cmd { return exec.Command(exe, "kernel", engineCommand) },
		Log:     stderr,
	})
	if err != nil {
		return fail(stderr, "kernel", err)
	}
	if err := kernel.Run(ctx, conn, eng); err != nil && !errors.Is(err, context.Canceled) {
		return fail(stderr, "kernel", err)
	}
	return 0
}

// engineCommand is the hidden `nsysx kernel engine`: the engine process
// that runs the cells of a kernel, started and supervised by it
// (kernel/engineproc), never by a user.
const engineCommand = "engine"

// serveEngine runs the engine process.
func serveEngine(stderr io.Writer) int {
	err := engineproc.Serve(func() (kernel.Engine, error) {
		eng, err := nsysxengine.New()
		if err != nil {
			return nil, err
		}
		return eng, nil
	})
	if err != nil {
		return fail(stderr, "kernel engine", err)
	}
	return 0
}
