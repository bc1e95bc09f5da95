package format

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want Spec
	}{
		{"csv", Spec{Name: "csv"}},
		{"column:nohdr:time=us", Spec{Name: "column", NoHeader: true, Units: Units{TS: "us", Dur: "us"}}},
		{"csv:time=ms:mem=KiB", Spec{Name: "csv", Units: Units{TS: "ms", Dur: "ms", Mem: "KiB"}}},
		{"tsv:esc", Spec{Name: "tsv", Escape: true}},
		{"csv:time=us:dur=ms", Spec{Name: "csv", Units: Units{TS: "us", Dur: "ms"}}},
		{"csv:dur=ms:time=us", Spec{Name: "csv", Units: Units{TS: "us", Dur: "us"}}}, // later wins
		{"csv:time=US:bytes=kib", Spec{Name: "csv", Units: Units{TS: "us", Dur: "us", Mem: "KiB", Thru: "KiB"}}},
		{"csv:time=seconds:mem=kB2", Spec{Name: "csv"}}, // unknown units are ignored
		{"json:noconv:nohdrunit:addr=uint:gid=gidhex", Spec{Name: "json",
			Units: Units{Addr: "uint", GID: "gidhex", NoConv: true, NoHdrUnit: true}}},
		{"column:nofmt:autolines=0:colmax=20:5:.:0", Spec{Name: "column", NoFormat: true, AutoLines: -1,
			ColMax: 20, Widths: []int{5, -1, 0}}},
		{"table:autolines=7:colmax=0", Spec{Name: "table", AutoLines: 7, ColMax: -1}},
		{"hdoc:title=My Report:css=style.css", Spec{Name: "hdoc", DocTitle: "My Report", HasDocTitle: true, CSS: "style.css"}},
		{"hdoc:title=", Spec{Name: "hdoc", HasDocTitle: true}},
		{"arrow", Spec{Name: "arrow"}},
		{"parquet", Spec{Name: "parquet"}},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cvs", "unknown format 'cvs' (did you mean csv?); valid: column, table, csv, tsv, json, hdoc, htable, arrow, parquet"},
		{"CSV", "did you mean csv?"},
		{"colum", "did you mean column?"},
		{"xml", "unknown format 'xml'; valid:"},
		{"csv:foo", "unknown option 'foo'"},
		{"csv:nofmt", "unknown option 'nofmt'"},
		{"tsv:title=x", "unknown option 'title=x'"},
		{"column:esc", "unknown option 'esc'"},
		{"column:-1", "unknown option '-1'"},
		{"column:autolines=x", "autolines wants a number"},
		{"table:colmax=-3", "colmax wants a number"},
		{"json:nohdr", "unknown option 'nohdr'"},
		{"arrow:time=us", "unknown option 'time=us'"},
		{"htable:css=x", "unknown option 'css=x'"},
	}
	for _, tt := range tests {
		_, err := ParseSpec(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSpec(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestParseTimeUnit(t *testing.T) {
	for in, want := range map[string]string{"n": "ns", "nsec": "ns", "u": "us", "use": "us",
		"msec": "ms", "s": "sec", "sec": "sec", "seconds": "sec", "USEC": "us"} {
		if got, err := ParseTimeUnit(in); err != nil || got != want {
			t.Errorf("ParseTimeUnit(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "nsecs", "ms2"} {
		if _, err := ParseTimeUnit(in); err == nil {
			t.Errorf("ParseTimeUnit(%q) gave no error", in)
		}
	}
}

func TestNamesExtHelp(t *testing.T) {
	want := []string{"column", "table", "csv", "tsv", "json", "hdoc", "htable", "arrow", "parquet"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v", got)
	}
	exts := map[string]string{"column": ".txt", "table": ".txt", "csv": ".csv", "tsv": ".tsv",
		"json": ".json", "hdoc": ".html", "htable": ".html", "arrow": ".arrow", "parquet": ".parquet", "x": ""}
	for name, ext := range exts {
		if got := Ext(name); got != ext {
			t.Errorf("Ext(%q) = %q, want %q", name, got, ext)
		}
	}
	for _, name := range want {
		h := Help(name)
		if !strings.HasPrefix(h, name) {
			t.Errorf("Help(%q) does not start with the syntax: %q", name, h)
		}
		if (name != "arrow" && name != "parquet") != strings.Contains(h, "noconv") {
			t.Errorf("Help(%q) unit options wrong", name)
		}
	}
	if h := Help(""); !strings.Contains(h, "htable") || !strings.Contains(h, ".parquet") {
		t.Errorf("Help(\"\") = %q", h)
	}
}
