package wire

import (
	"encoding/json"
	"fmt"
	"os"
)

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"`
	Key             string `json:"key"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and validates the connection file at path.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("reading connection file: %w", err)
	}
	if err := json.Unmarshal(b, &ci); err != nil {
		return ci, fmt.Errorf("parsing connection file %s: %w", path, err)
	}
	if err := ci.Validate(); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	return ci, nil
}

// Validate checks the transport, the signature scheme and the ports.
func (ci *ConnectionInfo) Validate() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" {
		return fmt.Errorf("unsupported transport %q (only tcp)", ci.Transport)
	}
	if ci.IP == "" {
		ci.IP = "127.0.0.1"
	}
	if ci.SignatureScheme == "" {
		ci.SignatureScheme = "hmac-sha256"
	}
	if ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("unsupported signature scheme %q (only hmac-sha256)", ci.SignatureScheme)
	}
	for name, p := range map[string]int{"shell_port": ci.ShellPort, "control_port": ci.ControlPort,
		"stdin_port": ci.StdinPort, "iopub_port": ci.IOPubPort, "hb_port": ci.HBPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("%s %d out of range", name, p)
		}
	}
	return nil
}

// Addr returns the host:port for one of the ports (0 lets the system choose).
func (ci ConnectionInfo) Addr(port int) string {
	return fmt.Sprintf("%s:%d", ci.IP, port)
}
