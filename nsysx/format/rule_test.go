package format

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// ruleCase is one rule_<name>.console.txt golden: the rule, its title and
// texts, and the row limit it ran with.
type ruleCase struct {
	file, rule, title, advice, none string
	limit                           int
}

func ruleCases() []ruleCase {
	gaps := func(file, gap string) ruleCase {
		return ruleCase{file, "gpu_gaps", "GPU Gaps",
			"The following are ranges where a GPU is idle for more than " + gap +
				"ms. Addressing these gaps might improve application performance." + suggestGaps,
			"There were no problems detected with GPU utilization. GPU was not found to be idle for more than " + gap + "ms.", 50}
	}
	util := func(file, threshold string) ruleCase {
		return ruleCase{file, "gpu_time_util", "GPU Time Utilization",
			"The following are time regions with an average GPU utilization below " + threshold +
				"%%. Addressing the gaps might improve application performance." + suggestGaps,
			"There were no problems detected with GPU utilization. No time regions have an average GPU utilization below " +
				threshold + "%%.", 50}
	}
	return []ruleCase{
		{"cuda_api_sync", "cuda_api_sync", "CUDA Synchronization APIs", syncAdvice, syncNone, 50},
		{"cuda_api_sync_rows_m1", "cuda_api_sync", "CUDA Synchronization APIs", syncAdvice, syncNone, -1},
		{"cuda_memcpy_async", "cuda_memcpy_async", "CUDA Async Memcpy with Pageable Memory",
			"The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy operations to block" +
				" and be executed synchronously. This leads to low GPU utilization." +
				"\n\nSuggestion: If applicable, use PINNED memory instead.",
			"There were no problems detected related to memcpy operations using pageable memory.", 50},
		{"cuda_memcpy_sync", "cuda_memcpy_sync", "CUDA Synchronous Memcpy",
			"The following are synchronous memory transfers that block the host. This does not include host" +
				" to device transfers of a memory block of 64 KB or less." +
				"\n\nSuggestion: Use cudaMemcpy*Async() APIs instead.",
			"There were no problems detected related to synchronous memcpy operations.", 50},
		{"cuda_memset_sync", "cuda_memset_sync", "CUDA Synchronous Memset", syncAdvice, syncNone, 50},
		gaps("gpu_gaps", "500"),
		gaps("gpu_gaps_gap_1", "1"),
		util("gpu_time_util", "50"),
		util("gpu_time_util_threshold_90_chunks_60", "90"),
	}
}

// splitCSV splits an nsys CSV line: a field is quoted only when it holds a
// comma, and nothing inside is escaped.
func splitCSV(line string) []string {
	var out []string
	for {
		if strings.HasPrefix(line, `"`) {
			if end := strings.Index(line[1:], `",`); end >= 0 {
				out = append(out, line[1:end+1])
				line = line[end+3:]
				continue
			}
			if len(line) > 1 && strings.HasSuffix(line, `"`) {
				return append(out, line[1:len(line)-1])
			}
		}
		f, rest, more := strings.Cut(line, ",")
		out = append(out, f)
		if !more {
			return out
		}
		line = rest
	}
}

// tagged turns a CSV header back into a tagged column name.
func tagged(h string) string {
	for suffix, tag := range map[string]string{" (ns)": ":dur_ns", " (MB)": ":mem_MB", " (%)": ":ratio_%"} {
		if label, ok := strings.CutSuffix(h, suffix); ok {
			return label + tag
		}
	}
	return h
}

// ruleResult rebuilds a rule's result from its CSV golden.
func ruleResult(t *testing.T, profile string, c ruleCase) *nsysx.Result {
	text := readFile(t, goldenPath(profile, "rule_"+c.file+".csv"))
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var names []string
	if text != "" {
		for _, h := range splitCSV(lines[0]) {
			names = append(names, tagged(h))
		}
	}
	r := nsysx.NewResult(c.rule, c.title, names...)
	r.IsRule, r.Advice, r.NoResult, r.RowLimit = true, c.advice, c.none, c.limit
	if text == "" {
		return r
	}
	for _, line := range lines[1:] {
		f := splitCSV(line)
		vals := make([]nsysx.Value, len(f))
		for i, s := range f {
			vals[i] = cell(t, s)
		}
		r.Add(vals...)
	}
	return r
}

func nonEmptyLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestGoldenRuleConsole renders every rule_*.console.txt golden (nsys analyze
// to the console, empty lines removed) from the rule's CSV golden.
func TestGoldenRuleConsole(t *testing.T) {
	n := 0
	for _, p := range profiles {
		for _, c := range ruleCases() {
			t.Run(p+"/"+c.file, func(t *testing.T) {
				r := ruleResult(t, p, c)
				s := mustSpec(t, "column")
				s.Locale = "C.UTF-8"
				want := readFile(t, filepath.Join(goldenPath(p, "rule_"+c.file+".console.txt")))
				compare(t, nonEmptyLines(render(t, r, s)), nonEmptyLines(want))
			})
			n++
		}
	}
	if n != 63 {
		t.Errorf("%d rule goldens, want 63", n)
	}
}
