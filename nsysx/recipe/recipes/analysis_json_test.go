package recipes

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// analysisOptions reads an .nsys-analysis file: the keys of its Options
// object in file order, their values, and the top-level object.
func analysisOptions(t *testing.T, path string) (keys []string, opts, top map[string]json.RawMessage) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, top = orderedJSON(t, b)
	keys, opts = orderedJSON(t, top["Options"])
	return keys, opts, top
}

// orderedJSON reads a JSON object as its keys in order and their values.
func orderedJSON(t *testing.T, b []byte) ([]string, map[string]json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	m := map[string]json.RawMessage{}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v", err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		m[tok.(string)] = v
	}
	return keys, m
}

// orderedKeys lists every object key of a JSON document in document order,
// each prefixed by its path.
func orderedKeys(t *testing.T, doc []byte) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(doc)))
	var keys []string
	if err := walkJSON(dec, "", &keys); err != nil {
		t.Fatal(err)
	}
	return strings.Join(keys, " ")
}

func walkJSON(dec *json.Decoder, path string, keys *[]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			p := path + "/" + k.(string)
			*keys = append(*keys, p)
			if err := walkJSON(dec, p, keys); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if err := walkJSON(dec, path+"[]", keys); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}
