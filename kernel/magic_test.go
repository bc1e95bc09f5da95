package kernel

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/kernel/wire"
)

func TestSplitArgs(t *testing.T) {
	for in, want := range map[string][]string{
		``:                         nil,
		`a b  c`:                   {"a", "b", "c"},
		`'a b' "c d"`:              {"a b", "c d"},
		`a\ b`:                     {"a b"},
		`"say \"hi\"" 'it''s'`:     {`say "hi"`, "its"},
		`"a\nb"`:                   {`a\nb`},
		`--db=x.sqlite "" last`:    {"--db=x.sqlite", "", "last"},
		`$(rm -rf /) ; echo $HOME`: {"$(rm", "-rf", "/)", ";", "echo", "$HOME"},
	} {
		got, err := SplitArgs(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitArgs(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `trailing\`} {
		if _, err := SplitArgs(bad); err == nil {
			t.Errorf("SplitArgs(%q): no error", bad)
		}
	}
}

func TestSplitCell(t *testing.T) {
	segs := splitCell("%cd /tmp\nx := 1\n\n%env A=b\ns := `\n%not a magic\n`\n")
	var kinds []string
	for _, s := range segs {
		kinds = append(kinds, s.magic+":"+s.args)
	}
	if got := strings.Join(kinds, "|"); got != "cd:/tmp|:|env:A=b|:" {
		t.Fatalf("segments %q", got)
	}
	if segs[1].body != "\nx := 1\n\n" || segs[3].line != 5 || !strings.HasPrefix(segs[3].body, "\n\n\n\ns := `") {
		t.Errorf("code segments keep their lines: %q %d %q", segs[1].body, segs[3].line, segs[3].body)
	}
	segs = splitCell("\n%%timeit -n 3\nx++\n%cd here\n")
	if len(segs) != 1 || !segs[0].cell || segs[0].magic != "timeit" || segs[0].args != "-n 3" || segs[0].body != "x++\n%cd here\n" {
		t.Errorf("cell magic: %+v", segs)
	}
}

func TestMagicRegistry(t *testing.T) {
	m := NewMagics()
	run := func(context.Context, []string, string, Output) error { return nil }
	if err := m.Register(Magic{Name: "sql", Cell: true, Usage: "%%sql [--db NAME]", Run: run}); err != nil {
		t.Fatal(err)
	}
	if err := m.Register(Magic{Name: "sql", Run: run}); err != nil {
		t.Errorf("a line magic may share a cell magic's name: %v", err)
	}
	for _, bad := range []Magic{{Name: "sql", Cell: true, Run: run}, {Name: "a b", Run: run}, {Name: "", Run: run}, {Name: "x"}} {
		if err := m.Register(bad); err == nil {
			t.Errorf("Register(%+v) accepted", bad)
		}
	}
	if _, ok := m.Lookup("sql", true); !ok {
		t.Error("lookup")
	}
	if l := m.List(); len(l) != 2 || l[0].Cell || !l[1].Cell {
		t.Errorf("List %+v", l)
	}
}

func TestStreamBatching(t *testing.T) {
	var msgs []string
	w := newStreamWriter("stdout", func(_, text string) { msgs = append(msgs, text) })
	big := strings.Repeat("é", streamMax) // 2 bytes per rune: cuts must not split one
	w.Write([]byte(big))
	w.Write([]byte("tail"))
	w.Flush()
	w.Close()
	w.Write([]byte("dropped"))
	if strings.Join(msgs, "") != big+"tail" {
		t.Fatalf("lost or reordered text")
	}
	for _, m := range msgs {
		if len(m) > streamMax || !strings.HasPrefix(m, "é") && m != "tail" {
			t.Errorf("bad chunk of %d bytes starting %q", len(m), m[:2])
		}
	}
	if len(msgs) > 4 {
		t.Errorf("%d messages for %d bytes", len(msgs), len(big))
	}
}

func TestHistoryQuery(t *testing.T) {
	var h history
	for i, c := range []string{"a := 1", "b := 2", "a + b", "a := 1"} {
		h.add(i+1, c)
	}
	h.setOutput(3, "3")
	asJSON := func(q wire.HistoryRequest) string {
		b, err := json.Marshal(h.query(q))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := asJSON(wire.HistoryRequest{HistAccessType: "tail", N: 2}); got != `[[1,3,"a + b"],[1,4,"a := 1"]]` {
		t.Errorf("tail %s", got)
	}
	if got := asJSON(wire.HistoryRequest{HistAccessType: "range", Session: 0, Start: 2, Stop: 4, Output: true}); got != `[[1,2,["b := 2",""]],[1,3,["a + b","3"]]]` {
		t.Errorf("range %s", got)
	}
	if got := asJSON(wire.HistoryRequest{HistAccessType: "search", Pattern: "a*", Unique: true}); got != `[[1,1,"a := 1"],[1,3,"a + b"]]` {
		t.Errorf("search %s", got)
	}
}
