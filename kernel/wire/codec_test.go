package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func testFrames(t *testing.T, s *Signer) [][]byte {
	t.Helper()
	h := Header{MsgID: NewID(), Session: "s", Username: "u", Date: Now(), MsgType: "kernel_info_request", Version: ProtocolVersion}
	frames, err := s.Encode([][]byte{[]byte("id1"), []byte("id2")}, h, json.RawMessage(`{"msg_id":"p"}`), map[string]any{"a": 1}, map[string]any{"code": "x"})
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

func TestSignVerifyRoundTrip(t *testing.T) {
	s := NewSigner("secret")
	frames := testFrames(t, s)
	m, err := s.Decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Identities) != 2 || string(m.Identities[1]) != "id2" {
		t.Errorf("identities = %q", m.Identities)
	}
	if m.Type() != "kernel_info_request" || m.Header.Version != "5.4" || m.ParentHeader().MsgID != "p" {
		t.Errorf("header %+v parent %s", m.Header, m.Parent)
	}
	var c struct{ Code string }
	if err := m.DecodeContent(&c); err != nil || c.Code != "x" {
		t.Errorf("content %s: %v", m.Content, err)
	}
	if len(frames[3]) != 64 {
		t.Errorf("signature %q is not a hex sha256", frames[3])
	}
}

func TestForgedAndMissingSignature(t *testing.T) {
	s := NewSigner("secret")
	for name, mutate := range map[string]func([][]byte){
		"forged":       func(f [][]byte) { f[3] = []byte(NewSigner("other").Sign(f[4], f[5], f[6], f[7])) },
		"missing":      func(f [][]byte) { f[3] = nil },
		"flipped":      func(f [][]byte) { f[3][0] ^= 1 },
		"content edit": func(f [][]byte) { f[7] = []byte(`{"code":"rm -rf /"}`) },
		"short sig":    func(f [][]byte) { f[3] = f[3][:10] },
	} {
		frames := testFrames(t, s)
		mutate(frames)
		if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s: err = %v, want ErrBadSignature", name, err)
		}
	}
}

func TestNoKeyNoSignature(t *testing.T) {
	s := NewSigner("")
	frames := testFrames(t, s)
	if len(frames[3]) != 0 {
		t.Errorf("signature %q with empty key", frames[3])
	}
	if _, err := s.Decode(frames); err != nil {
		t.Error(err)
	}
}

func TestMalformedFrames(t *testing.T) {
	s := NewSigner("k")
	good := testFrames(t, s)
	sign := func(h, p, md, c string) [][]byte {
		return [][]byte{[]byte(Delimiter), []byte(s.Sign([]byte(h), []byte(p), []byte(md), []byte(c))), []byte(h), []byte(p), []byte(md), []byte(c)}
	}
	cases := map[string][][]byte{
		"empty":        nil,
		"no delimiter": {[]byte("a"), []byte("b")},
		"short":        good[:5],
		"bad header":   sign(`{`, `{}`, `{}`, `{}`),
		"array header": sign(`[]`, `{}`, `{}`, `{}`),
		"bad content":  sign(`{"msg_type":"x"}`, `{}`, `{}`, `nope`),
		"no msg_type":  sign(`{}`, `{}`, `{}`, `{}`),
		"null parent":  sign(`{"msg_type":"x"}`, `null`, `{}`, `{}`),
	}
	for name, frames := range cases {
		if m, err := s.Decode(frames); err == nil {
			t.Errorf("%s: decoded %+v", name, m)
		}
	}
}

func FuzzDecode(f *testing.F) {
	s := NewSigner("")
	f.Add([]byte(`{"msg_type":"x"}`), []byte(`{}`), []byte(`{"a":[1]}`))
	f.Fuzz(func(t *testing.T, h, p, c []byte) {
		_, _ = s.Decode([][]byte{[]byte(Delimiter), nil, h, p, []byte("{}"), c})
	})
}

func TestReplayedMessageRejected(t *testing.T) {
	s := NewSigner("secret")
	frames := testFrames(t, s)
	if _, err := s.Decode(frames); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decode(frames); !errors.Is(err, ErrReplayed) {
		t.Fatalf("replay: err = %v, want ErrReplayed", err)
	}
	// the same message with its signature in upper case is the same signature
	up := append([][]byte(nil), frames...)
	up[3] = bytes.ToUpper(frames[3])
	if _, err := s.Decode(up); !errors.Is(err, ErrReplayed) {
		t.Errorf("upper-case replay: err = %v, want ErrReplayed", err)
	}
	// a forged message is not remembered (it cannot evict real signatures)
	forged := testFrames(t, s)
	forged[3] = []byte(NewSigner("other").Sign(forged[4], forged[5], forged[6], forged[7]))
	_, _ = s.Decode(forged)
	if n := len(s.seen.set); n != 1 {
		t.Errorf("%d signatures remembered, want 1", n)
	}
}

func TestDigestHistoryBounded(t *testing.T) {
	d := digests{limit: 3}
	for _, sig := range []string{"a", "b", "c"} {
		if !d.add(sig) {
			t.Fatalf("%s: seen before", sig)
		}
	}
	if d.add("b") {
		t.Error("b accepted twice")
	}
	if !d.add("d") || len(d.set) != 3 { // "a", the oldest, is forgotten
		t.Fatalf("after d: %v", d.set)
	}
	if !d.add("a") || d.add("c") || d.add("d") {
		t.Errorf("after a: %v", d.set)
	}
	if NewSigner("k").seen.limit != 1<<16 {
		t.Error("history size is not jupyter_client's 65536")
	}
}
