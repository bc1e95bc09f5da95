package kernel

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/nsysx/nsysx/kernel/wire"
)

func (k *Kernel) execute(ctx context.Context, r *wire.Request) {
	var req wire.ExecuteRequest
	if !decode(r, &req) {
		return
	}
	store := !req.Silent && (req.StoreHistory == nil || *req.StoreHistory)
	count, cellCtx, ok := k.startCell(ctx, r, req.Code, store)
	if !ok {
		return
	}
	defer k.endCell()
	if !req.Silent {
		r.Publish(wire.ExecuteInput{Code: req.Code, ExecutionCount: count})
	}
	if target, detail, ok := helpTarget(req.Code); ok {
		k.page(r, target, detail, count)
		return
	}
	out := newCellOutput(cellCtx, r, count, req.Silent)
	err := k.runWithGrace(cellCtx, req.Code, out)
	out.close()
	if store && out.resultText() != "" {
		k.history.setOutput(count, out.resultText())
	}
	if err != nil {
		if req.StopOnError == nil || *req.StopOnError {
			r.AbortQueued()
		}
		k.replyError(r, err, count, req.Silent)
		return
	}
	r.Reply(wire.ExecuteReply{Status: wire.StatusOK, ExecutionCount: count,
		UserExpressions: k.userExpressions(ctx, req.UserExpressions), Payload: []wire.Payload{}})
}

// startCell counts the cell (when stored) and makes its context, or
// answers an aborted request.
func (k *Kernel) startCell(ctx context.Context, r *wire.Request, code string, store bool) (int, context.Context, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if r.Aborting {
		r.Reply(wire.ExecuteAborted{Status: wire.StatusAborted, ExecutionCount: k.count})
		return 0, nil, false
	}
	if store {
		k.count++
		k.history.add(k.count, code)
	}
	cellCtx, cancel := context.WithCancel(ctx)
	k.cancelCell = cancel
	return k.count, cellCtx, true
}

func (k *Kernel) endCell() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cancelCell != nil {
		k.cancelCell()
		k.cancelCell = nil
	}
}

// replyError publishes the error of a cell (unless silent) and replies with it.
func (k *Kernel) replyError(r *wire.Request, err error, count int, silent bool) {
	ename, evalue, tb := errorFields(err)
	if !silent {
		r.Publish(wire.Error{Ename: ename, Evalue: evalue, Traceback: tb})
	}
	r.Reply(wire.ExecuteError{ErrorReply: wire.ErrorReply{Status: wire.StatusError, Ename: ename, Evalue: evalue, Traceback: tb},
		ExecutionCount: count})
}

// runWithGrace runs the cell on its own goroutine. After cancellation the
// cell gets InterruptGrace to return; if it does not, it is left running
// (its output is discarded from then on) and an interrupt error returned.
func (k *Kernel) runWithGrace(ctx context.Context, code string, out *cellOutput) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- &Error{Name: "panic", Value: fmt.Sprint(p),
					Traceback: append([]string{fmt.Sprintf("panic: %v", p)}, strings.Split(string(debug.Stack()), "\n")...)}
			}
		}()
		done <- k.runCell(ctx, code, out)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	t := time.NewTimer(k.InterruptGrace)
	defer t.Stop()
	select {
	case err := <-done:
		if err == nil {
			err = ctx.Err()
		}
		return err
	case <-t.C:
		return &Error{Name: "Interrupted", Value: "the cell did not stop within " + k.InterruptGrace.String() + "; it goes on in the background",
			Traceback: []string{"Interrupted: the cell is still running in the background; its output is discarded"}}
	}
}

// RunCell runs a cell (its Go code and magics) with out, outside any
// request: for tests and for running notebooks' code without Jupyter.
func (k *Kernel) RunCell(ctx context.Context, code string, out Output) error {
	return k.runCell(ctx, code, out)
}

// runCell runs the code and line magics of a cell in order, or its cell magic.
func (k *Kernel) runCell(ctx context.Context, code string, out Output) error {
	if ce, ok := k.engine.(CellEngine); ok {
		return ce.RunCell(ctx, code, out)
	}
	for _, seg := range splitCell(code) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if seg.magic == "" {
			if err := k.engine.Execute(ctx, seg.body, out); err != nil {
				return err
			}
			continue
		}
		mg, ok := k.magics.Lookup(seg.magic, seg.cell)
		if !ok {
			return Errorf("UsageError", "line %d: unknown magic %s%s (see %%help)", seg.line, prefix(seg.cell), seg.magic)
		}
		args, err := magicArgs(mg, seg.args)
		if err != nil {
			return Errorf("UsageError", "line %d: %s%s: %v", seg.line, prefix(seg.cell), seg.magic, err)
		}
		if err := mg.Run(ctx, args, seg.body, out); err != nil {
			return err
		}
	}
	// A cell that returned because it was interrupted (it waited on its
	// ctx) was interrupted, whichever noticed first.
	return ctx.Err()
}

// magicArgs splits a magic's argument text into shell words, or keeps it
// whole for a Raw magic.
func magicArgs(mg Magic, text string) ([]string, error) {
	if mg.Raw {
		return []string{text}, nil
	}
	return SplitArgs(text)
}

// errorFields turns an error into ename, evalue and traceback.
func errorFields(err error) (string, string, []string) {
	var e *Error
	switch {
	case errors.As(err, &e):
		tb := e.Traceback
		if tb == nil {
			tb = []string{e.Error()}
		}
		return e.Name, e.Value, tb
	case errors.Is(err, context.Canceled):
		return "Interrupted", "the cell was interrupted", []string{"Interrupted: the cell was interrupted"}
	}
	return "Error", err.Error(), strings.Split(err.Error(), "\n")
}

func (k *Kernel) userExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	res := map[string]any{}
	ev, ok := k.engine.(ExpressionEvaluator)
	for name, expr := range exprs {
		if !ok {
			res[name] = wire.ErrorReply{Status: wire.StatusError, Ename: "NotSupported",
				Evalue: "the engine does not evaluate user expressions", Traceback: []string{}}
			continue
		}
		data, err := ev.EvalExpression(ctx, expr)
		if err != nil {
			ename, evalue, tb := errorFields(err)
			res[name] = wire.ErrorReply{Status: wire.StatusError, Ename: ename, Evalue: evalue, Traceback: tb}
			continue
		}
		res[name] = wire.ExpressionResult{Status: wire.StatusOK, Bundle: bundle(data, nil)}
	}
	return res
}

// helpTarget recognises IPython's help cells, "name?" and "name??" (more
// detail), for a Go name, a selector (nsysx.Open) or a magic (%nsys).
func helpTarget(code string) (target string, detail int, ok bool) {
	t := strings.TrimSpace(code)
	if !strings.HasSuffix(t, "?") {
		return "", 0, false
	}
	if strings.HasSuffix(t, "??") {
		detail = 1
	}
	t = strings.TrimRight(t, "?")
	if t == "" {
		return "", 0, false
	}
	for i, c := range t {
		if !(c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 ||
			c == '%' && (i == 0 || i == 1 && t[0] == '%')) {
			return "", 0, false
		}
	}
	return t, detail, true
}

// page answers a help cell with the inspection of target as a "page"
// payload, the way IPython shows help in the pager.
func (k *Kernel) page(r *wire.Request, target string, detail, count int) {
	in := k.Inspect(target, len(target), detail)
	if !in.Found {
		k.replyError(r, Errorf("NameError", "no help for %s", target), count, false)
		return
	}
	r.Reply(wire.ExecuteReply{Status: wire.StatusOK, ExecutionCount: count, UserExpressions: map[string]any{},
		Payload: []wire.Payload{{Source: "page", Data: orEmpty(in.Data)}}})
}
