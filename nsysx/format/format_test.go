package format

import (
	"io"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

func write(t *testing.T, r *nsysx.Result, spec, locale string) string {
	t.Helper()
	s := mustSpec(t, spec)
	s.Locale = locale
	var b strings.Builder
	if err := Write(&b, r, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// writeCase is one spec written in one locale and the text it must give.
type writeCase struct{ spec, locale, want string }

// checkWrites writes r with each case's spec and locale.
func checkWrites(t *testing.T, r *nsysx.Result, cases []writeCase) {
	t.Helper()
	for _, c := range cases {
		if got := write(t, r, c.spec, c.locale); got != c.want {
			t.Errorf("%s (%s):\n got %q\nwant %q", c.spec, c.locale, got, c.want)
		}
	}
}

func names() *nsysx.Result {
	return sqlResult([]string{"Total:dur_ns", "Name", "_hidden"},
		v(1234567, `a,"b"`, 1), v(5, "q\"x\ty", 2), v(nil, "line\nbreak<&>", 3))
}

func TestSpecialCharacters(t *testing.T) {
	checkWrites(t, names(), []writeCase{
		{"csv", "C", "Total (ns),Name\n1234567,\"a,\"b\"\"\n5,q\"x\ty\n,line\nbreak<&>\n"},
		{"csv:nohdr:time=us", "C", "1234.567,\"a,\"b\"\"\n0.005,q\"x\ty\n,line\nbreak<&>\n"},
		{"tsv", "C", "Total (ns)\tName\n1234567\ta,\"b\"\n5\tq\"x y\n\tline\nbreak<&>\n"},
		{"tsv:esc:nohdrunit", "C", "Total\tName\n1234567\ta,\"b\"\n5\tq\"x\\ty\n\tline\nbreak<&>\n"},
		{"json", "C", "[\n  {\n    \"Total (ns)\": 1234567,\n    \"Name\": \"a,\\\"b\\\"\"\n  },\n" +
			"  {\n    \"Total (ns)\": 5,\n    \"Name\": \"q\\\"x\\ty\"\n  },\n" +
			"  {\n    \"Total (ns)\": \"\",\n    \"Name\": \"line\nbreak<&>\"\n  }\n]\n"},
		{"htable", "C", "<table>\n  <thead>\n    <tr>\n      <th>Total (ns)</th>\n      <th>Name</th>\n    </tr>\n  </thead>\n" +
			"  <tbody>\n    <tr>\n      <td>1234567</td>\n      <td>a,\"b\"</td>\n    </tr>\n" +
			"    <tr>\n      <td>5</td>\n      <td>q\"x\ty</td>\n    </tr>\n" +
			"    <tr>\n      <td></td>\n      <td>line\nbreak&lt;&amp;&gt;</td>\n    </tr>\n  </tbody>\n</table>\n"},
	})
}

func TestZeroRows(t *testing.T) {
	r := sqlResult([]string{"A:dur_ns", "Name"})
	r.Report, r.Title = "cuda_gpu_kern_sum", "CUDA GPU Kernel Summary"
	title := "\n ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n"
	none := "Report was successfully run, but no data was returned.\n\n"
	checkWrites(t, r, []writeCase{
		{"csv", "C", ""},
		{"tsv:nohdr", "C", ""},
		{"json", "C", "[\n]\n"},
		{"htable", "C", "<table>\n  </tbody>\n</table>\n"},
		{"column", "C", title + none},
		{"column:nohdr", "C", title + none},
		{"table", "C", "+--+\n" + title + none},
		{"hdoc:title=T", "C", "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"UTF-8\">\n  <title>T</title>\n" +
			"</head>\n<body>\n<h1>CUDA GPU Kernel Summary (cuda_gpu_kern_sum)</h1>\n<table>\n  </tbody>\n</table>\n</body>\n</html>\n"},
	})
}

func TestColumnLayout(t *testing.T) {
	r := sqlResult([]string{"Num", "Text", "Mixed"},
		v(1234567, "héllo wörld", "a"), v(2.5, "x", 1), v("1e+20", "", 2))
	checkWrites(t, r, []writeCase{
		{"column", "C", "\n ** DEBUG: SQL File (_sqlfile):\n\n" +
			"    Num        Text      Mixed\n" +
			" ---------  -----------  -----\n" +
			" 1234567    héllo wörld      a\n" + // decimal-aligned: integer part, then room for ".5"
			"       2.5  x                1\n" +
			"     1e+20                   2\n"}, // exponents right-aligned to the full width
		{"column", "en_US.UTF-8", "\n ** DEBUG: SQL File (_sqlfile):\n\n" +
			"     Num         Text      Mixed\n" +
			" -----------  -----------  -----\n" +
			" 1,234,567    héllo wörld      a\n" +
			"         2.5  x                1\n" +
			"       1e+20                   2\n"},
		{"column:nohdr:4:6:0", "C", "\n ** DEBUG: SQL File (_sqlfile):\n\n" +
			" 123…  héllo…  \n" +
			"  2.5  x       \n" +
			" 1e+…          \n"},
		{"table:nofmt:colmax=3", "C", "\n ** DEBUG: SQL File (_sqlfile):\n\n" +
			"+-----+-----+-----+\n" +
			"| Num | Te… | Mi… |\n" + // colmax caps header-driven widths too
			"+-----+-----+-----+\n" +
			"| 12… | hé… |   a |\n" +
			"| 2.5 | x   |   1 |\n" +
			"| 1e… |     |   2 |\n" +
			"+-----+-----+-----+\n"},
	})
}

func TestCentreAndClip(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"Name", 10, "   Name   "},
		{"Name", 9, "  Name   "}, // the odd space goes right
		{"Avg (ns)", 9, "Avg (ns) "},
		{"Total Time", 4, "Tot…"},
		{"é€ab", 3, "é€…"},
		{"100", 2, "1…"},
		{"x", 1, "x"},
		{"xy", 1, "…"},
	}
	for _, tt := range tests {
		if got := centre(tt.s, tt.w); got != tt.want {
			t.Errorf("centre(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}

func TestRuleOutput(t *testing.T) {
	r := apiSyncRule(1)
	r.Advice = "Advice line one.\n\nSuggestion: " + strings.Repeat("word ", 20)
	got := write(t, r, "column", "C")
	want := "\n ** CUDA Synchronization APIs (cuda_api_sync):\n\n" +
		"Advice line one.\n\nSuggestion: " + strings.TrimSuffix(strings.Repeat("word ", 13), " ") + "\n" +
		strings.TrimSuffix(strings.Repeat("word ", 7), " ") + " \n\n" +
		" Duration (ns)  Start (ns)  PID   TID            API Name          \n" +
		" -------------  ----------  ----  ----  ---------------------------\n" +
		"      46887213   476737902  1153  1153  cudaStreamSynchronize_v3020\n" +
		"\nOnly the top result is displayed. More data may be available.\n\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The data formats carry only the table.
	if got := write(t, r, "csv", "C"); got != "Duration (ns),Start (ns),PID,TID,API Name\n46887213,476737902,1153,1153,cudaStreamSynchronize_v3020\n" {
		t.Errorf("csv: %q", got)
	}
	if got := write(t, apiSyncRule(0), "table", "C"); got != "+--+\n\n ** CUDA Synchronization APIs (cuda_api_sync):\n\n"+syncNone+"\n\n" {
		t.Errorf("zero-row table: %q", got)
	}
}

func TestWriteSkippedAndBinary(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, nsysx.Skip("r", "R", "no data"), Spec{Name: "column"}); err != nil || b.Len() != 0 {
		t.Errorf("skipped: %q, %v", b.String(), err)
	}
	for _, name := range []string{"arrow", "parquet"} {
		if err := Write(&b, names(), Spec{Name: name}); err == nil || !strings.Contains(err.Error(), "WriteArrow") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := Write(&b, names(), Spec{Name: "xml"}); err == nil {
		t.Error("xml: no error")
	}
}

func TestLocale(t *testing.T) {
	for locale, want := range map[string]string{"": "", "C": "", "C.UTF-8": "", "POSIX": "",
		"en_US.UTF-8": ",", "en_US": ",", "en_GB.utf8": ",", "de_DE.UTF-8": "", "ja_JP.eucJP": ","} {
		if got := ThousandsSep(locale); got != want {
			t.Errorf("ThousandsSep(%q) = %q, want %q", locale, got, want)
		}
	}
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_NUMERIC", "en_US.UTF-8")
	t.Setenv("LANG", "C")
	if got := (Spec{}).sep(); got != "," {
		t.Errorf("LC_NUMERIC ignored: %q", got)
	}
	t.Setenv("LC_ALL", "C.UTF-8")
	if got := (Spec{}).sep(); got != "" {
		t.Errorf("LC_ALL ignored: %q", got)
	}
	if got := (Spec{Locale: "en_US.UTF-8"}).sep(); got != "," {
		t.Errorf("Spec.Locale ignored: %q", got)
	}
}

func TestHeaders(t *testing.T) {
	got := Headers(names(), mustSpec(t, "csv:time=ms"))
	if strings.Join(got, "|") != "Total (ms)|Name" {
		t.Errorf("Headers = %q", got)
	}
}

func BenchmarkWrite(b *testing.B) {
	r := nsysx.NewResult("cuda_gpu_trace", "CUDA GPU Trace", "Start:ts_ns", "Duration:dur_ns", "Bytes:mem_B",
		"Throughput:thru_B", "Device", "Name")
	for i := range 200000 {
		r.Add(nsysx.IntV(int64(i)*1234567), nsysx.IntV(int64(i%9999)), nsysx.IntV(int64(i)*4096),
			nsysx.FloatV(float64(i)*1.5), nsysx.TextV("NVIDIA H200 (0)"), nsysx.TextV("void kernel<float>(int, float *)"))
	}
	for _, spec := range []string{"csv", "column", "json"} {
		s := mustSpec(&testing.T{}, spec)
		s.Locale = "en_US.UTF-8"
		b.Run(spec, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, r, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
