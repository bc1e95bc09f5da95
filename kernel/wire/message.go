package wire

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// ProtocolVersion is the messaging protocol version the kernel speaks.
const ProtocolVersion = "5.4"

// Header is a message header. Parent headers are kept as raw JSON (see
// Message.Parent) so that they are echoed back exactly as received.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is a decoded Jupyter message.
type Message struct {
	// Identities are the ROUTER routing frames before the <IDS|MSG> delimiter.
	Identities [][]byte
	Header     Header
	// RawHeader is the header frame as received; replies use it as their parent.
	RawHeader json.RawMessage
	// Parent, Metadata and Content are the raw JSON dictionaries.
	Parent   json.RawMessage
	Metadata json.RawMessage
	Content  json.RawMessage
	Buffers  [][]byte
}

// Type returns the msg_type of the header.
func (m *Message) Type() string { return m.Header.MsgType }

// DecodeContent unmarshals the content into v.
func (m *Message) DecodeContent(v any) error { return json.Unmarshal(m.Content, v) }

// ParentHeader decodes the parent header; it is zero when there is none.
func (m *Message) ParentHeader() Header {
	var h Header
	if err := json.Unmarshal(m.Parent, &h); err != nil {
		return Header{}
	}
	return h
}

// NewID returns a random UUID-like identifier (version 4, hex with dashes).
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b[:])
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

// Now returns the current time in the ISO 8601 format used in headers.
func Now() string {
	return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")
}
