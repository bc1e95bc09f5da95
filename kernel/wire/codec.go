package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
)

// Delimiter separates routing identities from the message frames.
const Delimiter = "<IDS|MSG>"

// Errors returned by Decode. Messages failing with them must be dropped.
var (
	ErrNoDelimiter  = errors.New("wire: no <IDS|MSG> delimiter")
	ErrShortMessage = errors.New("wire: fewer than 5 frames after the delimiter")
	ErrBadSignature = errors.New("wire: bad or missing signature")
	ErrBadJSON      = errors.New("wire: malformed JSON frame")
	ErrReplayed     = errors.New("wire: duplicate signature (a replayed message)")
)

// DigestHistory is how many signatures of accepted messages a Signer
// remembers to reject replays: the default digest_history_size of
// jupyter_client's Session.
const DigestHistory = 1 << 16

// Signer computes and checks HMAC-SHA256 signatures. An empty key disables
// signing: signatures are empty and not checked. With a key, Decode
// rejects a message whose signature it accepted before (a correctly signed
// message sent again), remembering the last DigestHistory signatures as
// jupyter_client's Session does. A Signer is safe for concurrent use.
type Signer struct {
	key  []byte
	mu   sync.Mutex
	hmac hash.Hash
	seen digests
}

// digests is a bounded set of signatures: when full, the oldest is forgotten.
type digests struct {
	mu    sync.Mutex
	set   map[string]struct{}
	ring  []string
	next  int
	limit int
}

// add records sig and reports false if it was already there.
func (d *digests) add(sig string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.set[sig]; dup {
		return false
	}
	if d.set == nil {
		d.set = map[string]struct{}{}
	}
	if len(d.ring) < d.limit {
		d.ring = append(d.ring, sig)
	} else {
		delete(d.set, d.ring[d.next])
		d.ring[d.next] = sig
		d.next = (d.next + 1) % d.limit
	}
	d.set[sig] = struct{}{}
	return true
}

// NewSigner returns a Signer for key.
func NewSigner(key string) *Signer {
	s := &Signer{key: []byte(key), seen: digests{limit: DigestHistory}}
	if len(s.key) > 0 {
		s.hmac = hmac.New(sha256.New, s.key)
	}
	return s
}

// Sign returns the hex HMAC of the four frames (header, parent, metadata, content).
func (s *Signer) Sign(frames ...[]byte) string {
	if s.hmac == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hmac.Reset()
	for _, f := range frames {
		s.hmac.Write(f)
	}
	return hex.EncodeToString(s.hmac.Sum(nil))
}

// Verify reports whether sig is the signature of frames, in constant time.
func (s *Signer) Verify(sig []byte, frames ...[]byte) bool {
	if s.hmac == nil {
		return true
	}
	want := s.Sign(frames...)
	return len(sig) > 0 && hmac.Equal(bytes.ToLower(sig), []byte(want))
}

// Encode builds the wire frames of a message. header, parent, metadata and
// content are marshalled as JSON unless they already are json.RawMessage;
// nil parent and metadata become {}.
func (s *Signer) Encode(identities [][]byte, header Header, parent json.RawMessage, metadata, content any) ([][]byte, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	if len(parent) == 0 {
		parent = json.RawMessage("{}")
	}
	md, err := marshalDict(metadata)
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	c, err := marshalDict(content)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	frames := make([][]byte, 0, len(identities)+6)
	frames = append(frames, identities...)
	frames = append(frames, []byte(Delimiter), []byte(s.Sign(h, parent, md, c)), h, parent, md, c)
	return frames, nil
}

func marshalDict(v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		return x, nil
	}
	return json.Marshal(v)
}

// Decode parses and verifies the frames of a received message; a
// duplicate of an accepted message fails with ErrReplayed.
func (s *Signer) Decode(frames [][]byte) (*Message, error) {
	i := 0
	for i < len(frames) && string(frames[i]) != Delimiter {
		i++
	}
	if i == len(frames) {
		return nil, ErrNoDelimiter
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return nil, ErrShortMessage
	}
	sig, h, p, md, c := rest[0], rest[1], rest[2], rest[3], rest[4]
	if !s.Verify(sig, h, p, md, c) {
		return nil, ErrBadSignature
	}
	m := &Message{Identities: frames[:i], RawHeader: h, Parent: p, Metadata: md, Content: c, Buffers: rest[5:]}
	if bytes.HasPrefix(bytes.TrimSpace(h), []byte("null")) {
		return nil, fmt.Errorf("%w: null header", ErrBadJSON)
	}
	if err := json.Unmarshal(h, &m.Header); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrBadJSON, err)
	}
	for _, f := range [][]byte{p, md, c} {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(f, &d); err != nil || d == nil {
			return nil, fmt.Errorf("%w: %q is not a JSON object", ErrBadJSON, truncate(f))
		}
	}
	if m.Header.MsgType == "" {
		return nil, fmt.Errorf("%w: header has no msg_type", ErrBadJSON)
	}
	if s.hmac != nil && !s.seen.add(string(bytes.ToLower(sig))) {
		return nil, ErrReplayed
	}
	return m, nil
}

func truncate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
