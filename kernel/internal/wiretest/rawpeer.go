package wiretest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// RawPeer connects to the ZMTP 3.0 socket at addr as a peer of type
// sockType (DEALER, SUB, REQ, ...) with the NULL mechanism and completes
// the handshake by hand, byte by byte as the specification (ZMTP 3.0, RFC
// 23) lays them out, so that a test can then write any frame, malformed or
// hostile. The handshake waits at most timeout.
func RawPeer(addr, sockType string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	if err := rawHandshake(c, sockType, timeout); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func rawHandshake(c net.Conn, sockType string, timeout time.Duration) error {
	if err := c.SetDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	if _, err := c.Write(Greeting()); err != nil {
		return err
	}
	var g [64]byte
	if _, err := io.ReadFull(c, g[:]); err != nil {
		return fmt.Errorf("reading the greeting: %w", err)
	}
	if g[0] != 0xff || g[9] != 0x7f || g[10] != 3 {
		return fmt.Errorf("not a ZMTP 3 greeting: % x", g[:12])
	}
	if _, err := c.Write(ReadyCommand(sockType)); err != nil {
		return err
	}
	// the peer's READY: a short command frame
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return fmt.Errorf("reading READY: %w", err)
	}
	if hdr[0] != 0x04 {
		return fmt.Errorf("READY frame flags %#x, want a short command (0x04)", hdr[0])
	}
	if _, err := io.ReadFull(c, make([]byte, hdr[1])); err != nil {
		return fmt.Errorf("reading READY: %w", err)
	}
	return c.SetDeadline(time.Time{})
}

// Greeting is a ZMTP 3.0 client greeting with the NULL mechanism.
func Greeting() []byte {
	g := make([]byte, 64)
	g[0], g[9] = 0xff, 0x7f // signature
	g[10], g[11] = 3, 0     // version
	copy(g[12:32], "NULL")  // mechanism; as-server (g[32]) 0, filler zero
	return g
}

// ReadyCommand is a NULL-mechanism READY command frame naming sockType.
func ReadyCommand(sockType string) []byte {
	body := []byte("\x05READY\x0bSocket-Type")
	body = binary.BigEndian.AppendUint32(body, uint32(len(sockType)))
	body = append(body, sockType...)
	return append([]byte{0x04, byte(len(body))}, body...)
}

// LongFrameHeader is the header of a final message frame declaring size
// bytes (the long form: flags 0x02, then the size in 8 bytes).
func LongFrameHeader(size uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{0x02}, size)
}

// WaitClosed reads from c until the other side closes it and reports
// whether that happened within timeout.
func WaitClosed(c net.Conn, timeout time.Duration) bool {
	if err := c.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return false
	}
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}
