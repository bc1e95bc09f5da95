package wire

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/kernel/wire/third_party/zmq4"
)

// MaxMessageEnv names the environment variable that sets the largest
// message the kernel's sockets accept, in bytes (a plain number or one with
// a KiB, MiB or GiB suffix) when Options.MaxMessageSize is 0.
const MaxMessageEnv = "NSYSX_KERNEL_MAX_MESSAGE"

// DefaultMaxMessageSize is the largest message accepted when neither
// Options.MaxMessageSize nor NSYSX_KERNEL_MAX_MESSAGE says otherwise:
// 256 MiB, far above what a frontend sends (a cell's code, a widget's
// state), far below what would take the kernel's memory.
const DefaultMaxMessageSize = zmq4.DefaultMaxMsgSize

// minMaxMessageSize is the smallest limit accepted: below it the
// handshake and kernel_info could be refused.
const minMaxMessageSize = 64 << 10

// maxMessageSize is the limit opts give, else the environment's, else
// the default.
func maxMessageSize(opts Options) (int64, error) {
	if opts.MaxMessageSize != 0 {
		if opts.MaxMessageSize < minMaxMessageSize {
			return 0, fmt.Errorf("maximum message size %d: want at least %d bytes", opts.MaxMessageSize, minMaxMessageSize)
		}
		return opts.MaxMessageSize, nil
	}
	v, ok := os.LookupEnv(MaxMessageEnv)
	if !ok || v == "" {
		return DefaultMaxMessageSize, nil
	}
	n, err := parseSize(v)
	if err != nil || n < minMaxMessageSize {
		return 0, fmt.Errorf("%s=%q: want a size of at least 64KiB in bytes, KiB, MiB or GiB (such as 268435456 or 256MiB)", MaxMessageEnv, v)
	}
	return n, nil
}

// parseSize reads a byte count with an optional binary unit suffix.
func parseSize(s string) (int64, error) {
	shift := 0
	for i, unit := range []string{"KiB", "MiB", "GiB"} {
		if num, ok := strings.CutSuffix(s, unit); ok {
			s, shift = num, 10*(i+1)
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n << shift, nil
}
