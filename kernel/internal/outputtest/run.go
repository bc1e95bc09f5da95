package outputtest

import (
	"context"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

// Run runs one cell with exec, writing to out, under a deadline of
// timeout; it returns out and exec's error.
func Run[O kernel.Output](out O, timeout time.Duration, exec func(context.Context, O) error) (O, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return out, exec(ctx, out)
}
