package format

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// testdata/nsys holds outputs of nsys 2025.3.1 itself for small hand-written
// queries (nsys stats -q -f SPEC -o - -r _sqlfile:file=Q.sql, LC_ALL=en_US.UTF-8
// unless the MANIFEST says otherwise) and for rules on the train profile
// (nsys analyze -q). The queries are rebuilt below as Results with the same
// SQLite values; MANIFEST maps each file to its query, spec, --timeunit and
// locale.

// v turns Go values into SQLite values: int, float64, string, nil.
func v(vals ...any) []nsysx.Value {
	out := make([]nsysx.Value, len(vals))
	for i, x := range vals {
		switch x := x.(type) {
		case int:
			out[i] = nsysx.IntV(int64(x))
		case float64:
			out[i] = nsysx.FloatV(x)
		case string:
			out[i] = nsysx.TextV(x)
		case nil:
			out[i] = nsysx.Null
		}
	}
	return out
}

// sqlResult builds a _sqlfile result from rows.
func sqlResult(names []string, rows ...[]nsysx.Value) *nsysx.Result {
	r := nsysx.NewResult("_sqlfile", "DEBUG: SQL File", names...)
	for _, row := range rows {
		r.Add(row...)
	}
	return r
}

// sameColumns builds a result whose columns all hold the same values.
func sameColumns(names []string, vals []nsysx.Value) *nsysx.Result {
	var rows [][]nsysx.Value
	for _, x := range vals {
		row := make([]nsysx.Value, len(names))
		for j := range row {
			row[j] = x
		}
		rows = append(rows, row)
	}
	return sqlResult(names, rows...)
}

var queries = map[string]func() *nsysx.Result{
	"units": func() *nsysx.Result {
		names := strings.Split("A:dur_ns B:ts_ns C:mem_B D:thru_B E:addr_uint F:gid G:ratio_% H:dur_us I:dur_foo "+
			"J:mem_KB K:DUR_NS L:mem_b M:B N:r O:dur P:dur_ns:xyz Q:thru_B/s R:mem S:ts_ms T:gid_gidhex "+
			"U:addr_hex V:ratio W:mem_GiB X:dur_s Y:dur_sec", " ")
		row1 := make([]any, 25)
		for i := range row1 {
			row1[i] = 1234567
		}
		row1[6] = 25.5
		return sqlResult(names, v(row1...),
			v(-50, 50, -1, 0, -5, -5, 0.5, 1.5, 7, 1.5, 50, 1000, 5, 5, 5, 5, 5, 5, 5.5, 5, 255, 0.1, 2, 3, 4),
			v("00", ".5", " 5", "1,000", "0x10", "abc", "", nil, "1e5", "5.", "+5", "-007", 1e20, -0.0001,
				"nan", "inf", 1.5e16, 12345678901234567890123.0, -1e-5, 0, -1, 1.5, 0.4, 0.4, 0.4))
	},
	"gid": func() *nsysx.Result {
		return sqlResult([]string{"G:gid", "A:addr_uint", "Z"},
			v(72620544041680900, 1234567, "x"), v(-1, 12.5, "y"), v(0, "0x10", "z"),
			v(255, -1, "w"), v(12.5, 0, "v"))
	},
	"col": func() *nsysx.Result {
		return sqlResult([]string{"N", "Numbers", "Text", "E:dur_ns", "Mixed"},
			v(1, "1.25", "abc", 5, "a"), v(2, "1e+20", "héllo wörld", 6, "b"), v(3, "3", "x", 7, 1),
			v(4, "3.5", "y", 8, 2), v(5, "123456789012", "a much longer text value that will need clipping later", 9, "c"),
			v(6, "-0.000", "", nil, 3), v(7, "+5", "12", 100000, ""), v(8, "5.", "13", 1e5, nil),
			v(9, "1.5E+07", "14", 0, 4.25), v(10, "12345678901234567890123", "", 12345.678, "d"),
			v(11, "-0", "q", 0.30000000000000004, 5), v(12, "00", "r", 1e-5, 6))
	},
	"zero": func() *nsysx.Result { return sqlResult([]string{"A:dur_ns", "Name"}) },
	"json": func() *nsysx.Result {
		return sameColumns([]string{"Val:dur_ns", "K\"ey<&>,\tt"},
			v("true", "false", "null", "TRUE", "+5", "5.", "1e5", "a\"b\\c\td", "line\nbreak", "", nil,
				"<&>\"'", "x,y", "q\"x", "a,\"b\"", "  sp  ", "é€", "-0", "1E5", "\rcr"))
	},
	"grp": func() *nsysx.Result {
		names := []string{"A", "B:dur_ns", "C", "D:mem_B"}
		var rows [][]nsysx.Value
		for _, r := range [][]any{{-1234567, 1234567.0, "+5"}, {-0.5, 1.2345678901234568e22, "-0"},
			{"12345678901234567890123", 1234.5, "1e5"}, {"1.5E+07", 999, "1000"}, {123, 1234567890123.25, "-1234.5678"}} {
			rows = append(rows, v(r[0], r[1], r[2], r[1]))
		}
		return sqlResult(names, rows...)
	},
	"wide": func() *nsysx.Result {
		return sqlResult([]string{"A", "Name"}, v(1, "short"), v(2, "xx"),
			v(3, "a text that is much wider than the earlier rows of this table"), v(4444444, "z"))
	},
	"hdr": func() *nsysx.Result {
		return sqlResult([]string{"A very long header name here", "Another long header", "B:dur_ns"}, v(1, "x", 2.5))
	},
	"conv": func() *nsysx.Result {
		return sameColumns(strings.Split("A:dur_us B:mem_KB C:dur_ns D:mem_B E:ts_sec F:mem_KiB G:dur_ms", " "),
			v("1.23456789", 1.23456789, "+5", "5.", "1e5", "-0", "-0.0", 0.1, 1e-7, 123456789012345678,
				"1e999", "-12345678901234567890123", 2.5e-8, -3, 0.3, 1234567))
	},
	"tags": func() *nsysx.Result {
		names := strings.Split(":r|X: dur_ns|Y:ratio_x|Z:gid_gidint|W:addr_uint:foo|V:mem_KiB|U:thru_KB|T:Dur_Us|"+
			"S:ratio_%:x||R:|Q:ts_usec|P:mem_kib|O:thru|N:gid_gidsubint|M:addr|L:ratio_pct|K:TS_NS|J:mem_mb|I:dur_nsec", "|")
		row := make([]any, len(names))
		for i := range row {
			row[i] = i + 1
		}
		return sqlResult(names, v(row...))
	},
	"txt": func() *nsysx.Result {
		return sqlResult([]string{"A", "B", "Col C"}, v("x", "1.5", "1e5"), v("y", "22", "q"),
			v("z", "abc", "r"), v("1.25", "def", "s"), v("22.125", "ghi", "12.5"), v(3, "jkl", 7))
	},
	"edge": func() *nsysx.Result {
		return sqlResult([]string{"A:dur_", "B:mem_", "C", "D:addr_", "E:gid_"}, v(1234567, 1234567, "x", 1234567, 5))
	},
	"gpu_gaps": func() *nsysx.Result { return gapsRule(500) },
	"gpu_gaps_gap1": func() *nsysx.Result {
		r := gapsRule(1)
		r.Add(v(1, 2900498, 1030068896, 1153, 0, 1)...)
		r.Add(v(2, 2896401, 395171391, 1153, 0, 1)...)
		return r
	},
	"cuda_api_sync_rows0": func() *nsysx.Result { return apiSyncRule(0) },
	"cuda_api_sync_rows1": func() *nsysx.Result { return apiSyncRule(1) },
	"cuda_api_sync_rows3": func() *nsysx.Result { return apiSyncRule(3) },
}

// The rule texts, as nsys 2025.3.1's rule scripts write them.
const (
	suggestGaps = "\n\nSuggestions:\n   1. Use CPU sampling data, OS Runtime blocked state backtraces, and/or" +
		" OS Runtime APIs related to thread synchronization to understand if a sluggish or blocked" +
		" CPU is causing the gaps.\n   2. Add NVTX annotations to CPU code to understand the" +
		" reason behind the gaps."
	syncAdvice = "The following are synchronization APIs that block the host until all issued CUDA" +
		" calls are complete.\n\nSuggestions:\n   1. Avoid excessive use of synchronization.\n" +
		"   2. Use asynchronous CUDA event calls, such as cudaStreamWaitEvent() and" +
		" cudaEventSynchronize(), to prevent host synchronization."
	syncNone = "There were no problems detected related to synchronization APIs."
)

func gapsRule(gap int) *nsysx.Result {
	r := nsysx.NewResult("gpu_gaps", "GPU Gaps", "Row#", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID")
	g := itoa(gap)
	r.IsRule, r.RowLimit = true, 50
	r.Advice = "The following are ranges where a GPU is idle for more than " + g +
		"ms. Addressing these gaps might improve application performance." + suggestGaps
	r.NoResult = "There were no problems detected with GPU utilization. GPU was not found to be idle for more than " + g + "ms."
	return r
}

func apiSyncRule(rows int) *nsysx.Result {
	r := nsysx.NewResult("cuda_api_sync", "CUDA Synchronization APIs", "Duration:dur_ns", "Start:ts_ns", "PID", "TID", "API Name")
	r.IsRule, r.RowLimit, r.Advice, r.NoResult = true, rows, syncAdvice, syncNone
	data := [][]any{{46887213, 476737902}, {45592913, 541181950}, {45451357, 604638402}}
	for _, d := range data[:rows] {
		r.Add(v(d[0], d[1], 1153, 1153, "cudaStreamSynchronize_v3020")...)
	}
	return r
}

func TestNsysOutputs(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "nsys", "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		file, query, spec, tu, locale := fields[0], fields[1], fields[2], fields[3], fields[4]
		t.Run(file, func(t *testing.T) {
			build, ok := queries[query]
			if !ok {
				t.Fatalf("no query %q", query)
			}
			s := mustSpec(t, spec)
			s.Locale = locale
			if tu != "-" {
				if s.TimeUnit, err = ParseTimeUnit(tu); err != nil {
					t.Fatal(err)
				}
			}
			compare(t, render(t, build(), s), readFile(t, filepath.Join("testdata", "nsys", file)))
		})
		n++
	}
	if n < 100 {
		t.Errorf("only %d nsys outputs", n)
	}
}
