package timeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// tev is a parsed trace event.
type tev struct {
	Ph   string         `json:"ph"`
	Cat  *string        `json:"cat"`
	Name *string        `json:"name"`
	Pid  *int64         `json:"pid"`
	Tid  *int64         `json:"tid"`
	Ts   *json.Number   `json:"ts"`
	Dur  *json.Number   `json:"dur"`
	ID   *int64         `json:"id"`
	Bp   string         `json:"bp"`
	S    string         `json:"s"`
	Args map[string]any `json:"args"`
}

type trace struct {
	DisplayTimeUnit string `json:"displayTimeUnit"`
	TraceEvents     []tev  `json:"traceEvents"`
}

func parseTrace(t *testing.T, data []byte) *trace {
	t.Helper()
	var tr trace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&tr); err != nil {
		t.Fatalf("the trace is not valid JSON: %v", err)
	}
	if dec.More() {
		t.Fatal("data after the trace object")
	}
	return &tr
}

// ns converts a microsecond timestamp with three decimals back to ns.
func ns(t *testing.T, n *json.Number) int64 {
	t.Helper()
	s := string(*n)
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 3 {
		t.Fatalf("timestamp %s has more than nanosecond precision", s)
	}
	frac += strings.Repeat("0", 3-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad timestamp %s", s)
	}
	if strings.HasPrefix(whole, "-") {
		return w*1000 - f
	}
	return w*1000 + f
}

func export(t *testing.T, p *nsysx.Profile, f *nsysx.Filter) (*trace, *Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := WritePerfetto(context.Background(), &buf, p, f)
	if err != nil {
		t.Fatal(err)
	}
	return parseTrace(t, buf.Bytes()), st
}

// checkWellFormed checks the invariants every trace must meet.
func checkWellFormed(t *testing.T, tr *trace) map[string]int {
	t.Helper()
	named := map[[2]int64]bool{}
	procs := map[int64]bool{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && e.Name != nil && *e.Name == "thread_name" {
			named[[2]int64{*e.Pid, *e.Tid}] = true
		}
		if e.Ph == "M" && e.Name != nil && *e.Name == "process_name" {
			procs[*e.Pid] = true
		}
	}
	counts := map[string]int{}
	flows := map[int64][2]int{}
	async := map[int64][2]int{}
	for i, e := range tr.TraceEvents {
		if e.Ph == "" || e.Pid == nil || e.Tid == nil || e.Name == nil {
			t.Fatalf("event %d lacks ph, pid, tid or name: %+v", i, e)
		}
		if e.Ph == "M" {
			continue
		}
		if e.Ts == nil || e.Cat == nil {
			t.Fatalf("event %d lacks ts or cat", i)
		}
		if !named[[2]int64{*e.Pid, *e.Tid}] || !procs[*e.Pid] {
			t.Fatalf("event %d is on a track with no thread_name/process_name", i)
		}
		ns(t, e.Ts)
		switch e.Ph {
		case "X":
			if e.Dur == nil || ns(t, e.Dur) < 0 {
				t.Fatalf("X event %d has no or a negative dur", i)
			}
			counts[strings.Split(*e.Cat, ",")[0]]++
		case "s", "f":
			v := flows[*e.ID]
			if e.Ph == "s" {
				v[0]++
			} else {
				v[1]++
				if e.Bp != "e" {
					t.Fatalf("flow end %d without bp=e", i)
				}
			}
			flows[*e.ID] = v
		case "b", "e":
			v := async[*e.ID]
			v[map[string]int{"b": 0, "e": 1}[e.Ph]]++
			async[*e.ID] = v
		case "i":
			counts["mark"]++
		default:
			t.Fatalf("unexpected phase %q", e.Ph)
		}
	}
	for id, v := range flows {
		if v != [2]int{1, 1} {
			t.Fatalf("flow id %d has %d starts and %d ends", id, v[0], v[1])
		}
	}
	for id, v := range async {
		if v != [2]int{1, 1} {
			t.Fatalf("async id %d has %d begins and %d ends", id, v[0], v[1])
		}
	}
	counts["flow"] = len(flows)
	counts["async"] = len(async)
	checkNesting(t, tr)
	return counts
}

// checkNesting checks that no two complete events of one track partly
// overlap: viewers draw the events of a track as a stack of slices, so two
// that partly overlap are drawn as one nested in the other, or broken.
func checkNesting(t *testing.T, tr *trace) {
	t.Helper()
	type span struct {
		s, e int64
		name string
	}
	tracks := map[[2]int64][]span{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" {
			s := ns(t, e.Ts)
			tracks[[2]int64{*e.Pid, *e.Tid}] = append(tracks[[2]int64{*e.Pid, *e.Tid}], span{s, s + ns(t, e.Dur), *e.Name})
		}
	}
	for k, sp := range tracks {
		sort.Slice(sp, func(a, b int) bool { return sp[a].s < sp[b].s || sp[a].s == sp[b].s && sp[a].e > sp[b].e })
		var open []span // the enclosing slices, innermost last
		for _, x := range sp {
			for len(open) > 0 && open[len(open)-1].e <= x.s {
				open = open[:len(open)-1]
			}
			if n := len(open); n > 0 && x.e > open[n-1].e {
				t.Errorf("track %v: %q [%d, %d] partly overlaps %q [%d, %d]", k, x.name, x.s, x.e, open[n-1].name, open[n-1].s, open[n-1].e)
				return
			}
			open = append(open, x)
		}
	}
}

// TestPerfettoOverlappingGPUWork: on cnn (a ResNet), kernels that start
// before the previous operation of their stream ends (programmatic
// dependent launch) go to a track of their own beside the stream's, one
// per operation found overlapping in the raw tables; checkNesting then
// finds no partly overlapping slices.
func TestPerfettoOverlappingGPUWork(t *testing.T) {
	p := profile(t, "cnn")
	want := 0
	streams := map[[3]int64][][2]int64{}
	for _, table := range gpuTables {
		k, err := p.Load(context.Background(), table, "start", "end", "globalPid", "deviceId", "streamId")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < k.N; i++ {
			key := [3]int64{k.Col("globalPid").Int(i), k.Col("deviceId").Int(i), k.Col("streamId").Int(i)}
			streams[key] = append(streams[key], [2]int64{k.Col("start").Int(i), k.Col("end").Int(i)})
		}
	}
	for _, ops := range streams {
		sort.Slice(ops, func(a, b int) bool { return ops[a][0] < ops[b][0] })
		end := int64(math.MinInt64)
		for _, op := range ops {
			if op[0] < end {
				want++
			}
			end = max(end, op[1])
		}
	}
	if want == 0 {
		t.Fatal("cnn has no overlapping GPU operations on a stream")
	}
	tr, _ := export(t, p, nil)
	checkWellFormed(t, tr)
	lanes := map[[2]int64]bool{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && *e.Name == "thread_name" && strings.Contains(e.Args["name"].(string), "(overlapping ") {
			lanes[[2]int64{*e.Pid, *e.Tid}] = true
		}
	}
	got := 0
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && lanes[[2]int64{*e.Pid, *e.Tid}] {
			got++
		}
	}
	if got != want {
		t.Errorf("%d GPU operations on overlap tracks, the raw tables have %d overlapping their stream", got, want)
	}
}

// rawCount counts a table's rows, 0 when the profile lacks it.
func rawCount(t *testing.T, p *nsysx.Profile, table string) int {
	if !p.HasTable(table) {
		return 0
	}
	tb, err := p.Load(context.Background(), table, "start")
	if err != nil {
		t.Fatal(err)
	}
	return tb.N
}

// rawFlows counts the GPU operations whose (process, correlationId) is that
// of a CUDA API call, from the raw tables.
func rawFlows(t *testing.T, p *nsysx.Profile) int {
	if !p.HasTable("CUPTI_ACTIVITY_KIND_RUNTIME") {
		return 0
	}
	rt, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid", "correlationId")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[[2]int64]bool{}
	for i := 0; i < rt.N; i++ {
		calls[[2]int64{rt.Col("globalTid").Int(i) >> 24, rt.Col("correlationId").Int(i)}] = true
	}
	n := 0
	for _, tb := range gpuTables {
		if !p.HasTable(tb) {
			continue
		}
		g, err := p.Load(context.Background(), tb, "globalPid", "correlationId")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < g.N; i++ {
			if c := g.Col("correlationId").Int(i); c != 0 && calls[[2]int64{g.Col("globalPid").Int(i) >> 24, c}] {
				n++
			}
		}
	}
	return n
}

// nvtxCounts counts push/pop ranges with an end, start/end ranges with an
// end and marks in the raw NVTX table.
func nvtxCounts(t *testing.T, p *nsysx.Profile) (push, startEnd, marks int) {
	if !p.HasTable("NVTX_EVENTS") {
		return
	}
	tb, err := p.Load(context.Background(), "NVTX_EVENTS", "eventType", "end")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < tb.N; i++ {
		ended := !tb.Col("end").IsNull(i)
		switch tb.Col("eventType").Int(i) {
		case 59:
			push += b2i(ended)
		case 60:
			startEnd += b2i(ended)
		case 34:
			marks++
		}
	}
	return
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The whole trace: every event of every kind the raw tables hold, with a
// flow for every GPU operation whose API call is in the profile.
func TestPerfettoCountsMatchRawTables(t *testing.T) {
	for _, name := range []string{"train", "sync", "rank0", "cnn"} {
		t.Run(name, func(t *testing.T) {
			p := profile(t, name)
			tr, st := export(t, p, nil)
			if tr.DisplayTimeUnit != "ns" {
				t.Errorf("displayTimeUnit %q", tr.DisplayTimeUnit)
			}
			got := checkWellFormed(t, tr)
			push, startEnd, marks := nvtxCounts(t, p)
			want := map[string]int{
				"cuda_api": rawCount(t, p, "CUPTI_ACTIVITY_KIND_RUNTIME"),
				"kernel":   rawCount(t, p, "CUPTI_ACTIVITY_KIND_KERNEL"),
				"memcpy":   rawCount(t, p, "CUPTI_ACTIVITY_KIND_MEMCPY"),
				"memset":   rawCount(t, p, "CUPTI_ACTIVITY_KIND_MEMSET"),
				"osrt":     rawCount(t, p, "OSRT_API"),
				"nvtx":     push,
				"async":    startEnd,
				"mark":     marks,
				"flow":     rawFlows(t, p),
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: %d in the trace, %d in the raw tables", k, got[k], v)
				}
			}
			if want["kernel"] == 0 || want["flow"] == 0 {
				t.Errorf("profile %s has no kernels or flows to test", name)
			}
			if st.Count(KindKernel) != want["kernel"] || st.Flows != want["flow"] {
				t.Errorf("stats %+v disagree with the trace", st)
			}
		})
	}
}

// Flow ends sit at the start of a complete event on their own track: the
// API call that launched the work and the work itself.
func TestPerfettoFlowsBindToSlices(t *testing.T) {
	tr, _ := export(t, profile(t, "train"), nil)
	starts := map[[3]int64]string{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" {
			starts[[3]int64{*e.Pid, *e.Tid, ns(t, e.Ts)}] = *e.Cat
		}
	}
	for _, e := range tr.TraceEvents {
		if e.Ph != "s" && e.Ph != "f" {
			continue
		}
		cat, ok := starts[[3]int64{*e.Pid, *e.Tid, ns(t, e.Ts)}]
		switch {
		case !ok:
			t.Fatalf("flow %s %d is not at the start of a slice of its track", e.Ph, *e.ID)
		case e.Ph == "s" && cat != "cuda_api", e.Ph == "f" && cat == "cuda_api":
			t.Fatalf("flow %s %d bound to a %s slice", e.Ph, *e.ID, cat)
		}
	}
}

// Timestamps are exact: the first kernel of the raw table is in the trace
// with its start and duration to the nanosecond, its name and its stream.
func TestPerfettoKernelFields(t *testing.T) {
	p := profile(t, "train")
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "demangledName", "streamId")
	if err != nil {
		t.Fatal(err)
	}
	name, _ := p.String(context.Background(), k.Col("demangledName").Int(0))
	tr, _ := export(t, p, nil)
	streams := map[[2]int64]string{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && *e.Name == "thread_name" {
			streams[[2]int64{*e.Pid, *e.Tid}] = e.Args["name"].(string)
		}
	}
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && *e.Cat == "kernel" && ns(t, e.Ts) == k.Col("start").Int(0) {
			if ns(t, e.Dur) != k.Col("end").Int(0)-k.Col("start").Int(0) || *e.Name != name {
				t.Errorf("first kernel: got %s dur %s, want %s", *e.Name, *e.Dur, name)
			}
			if want := "Stream " + strconv.FormatInt(k.Col("streamId").Int(0), 10); streams[[2]int64{*e.Pid, *e.Tid}] != want {
				t.Errorf("first kernel on track %q, want %q", streams[[2]int64{*e.Pid, *e.Tid}], want)
			}
			return
		}
	}
	t.Fatal("the first kernel is not in the trace")
}

// NVTX ranges carry their domain (named by the NvtxDomainCreate events of
// the raw table) and colour.
func TestPerfettoNVTXDomains(t *testing.T) {
	p := profile(t, "rank0")
	raw, err := p.Load(context.Background(), "NVTX_EVENTS", "eventType", "domainId", "text", "end")
	if err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	for i := 0; i < raw.N; i++ {
		if raw.Col("eventType").Int(i) == 75 {
			names[raw.Col("domainId").Int(i)] = raw.Col("text").Str(i)
		}
	}
	want := map[string]int{}
	for i := 0; i < raw.N; i++ {
		if raw.Col("eventType").Int(i) == 59 && !raw.Col("end").IsNull(i) {
			want[names[raw.Col("domainId").Int(i)]]++
		}
	}
	tr, _ := export(t, p, nil)
	got := map[string]int{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && strings.HasPrefix(*e.Cat, "nvtx") {
			d, _ := e.Args["domain"].(string)
			got[d]++
			if d == "NCCL" != strings.Contains(*e.Cat, "nccl") {
				t.Fatalf("range %q of domain %q, category %q", *e.Name, d, *e.Cat)
			}
		}
	}
	if len(want) < 2 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ranges per domain: %v, raw table %v", got, want)
	}
	tr, _ = export(t, profile(t, "bt"), nil)
	colours := 0
	for _, e := range tr.TraceEvents {
		if c, ok := e.Args["color"].(string); ok && len(c) == 7 && c[0] == '#' {
			colours++
		}
	}
	if colours == 0 {
		t.Error("bt's coloured NVTX ranges have no colour")
	}
}

// Under --filter-time and --filter-nvtx the trace holds the rows nsys's
// reports see (counts from the goldens nsys wrote with the same filters).
func TestPerfettoFilters(t *testing.T) {
	p := profile(t, "train")
	ft, err := nsysx.ParseTimeFilter("439137055/862204310")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := export(t, p, ft)
	got := checkWellFormed(t, tr)
	kern, _ := goldenSum(t, "train", "filter_time_cuda_gpu_kern_sum.csv", "Instances")
	api, _ := goldenSum(t, "train", "filter_time_cuda_api_sum.csv", "Num Calls")
	if got["flow"] == 0 {
		t.Error("the time window lost its flows")
	}
	if got["kernel"] != kern || got["cuda_api"] != api {
		t.Errorf("--filter-time: %d kernels, %d API calls; nsys: %d, %d", got["kernel"], got["cuda_api"], kern, api)
	}
	nf, _ := nsysx.ParseNVTXFilter("attention/1")
	tr, _ = export(t, p, nf)
	got = checkWellFormed(t, tr)
	_, gpuRows := goldenSum(t, "train", "filter_nvtx_cuda_gpu_trace.csv", "")
	api, _ = goldenSum(t, "train", "filter_nvtx_cuda_api_sum.csv", "Num Calls")
	if g := got["kernel"] + got["memcpy"] + got["memset"]; g != gpuRows || got["cuda_api"] != api {
		t.Errorf("--filter-nvtx: %d GPU ops, %d API calls; nsys: %d, %d", g, got["cuda_api"], gpuRows, api)
	}
	if got["kernel"] == 0 {
		t.Error("the NVTX window lost its kernels")
	}
	if _, err := WritePerfetto(context.Background(), &bytes.Buffer{}, p, mustNVTX(t, "no such range")); err == nil {
		t.Error("a range that is not there should be an error")
	}
}

func mustNVTX(t *testing.T, s string) *nsysx.Filter {
	f, err := nsysx.ParseNVTXFilter(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// ExportPerfetto writes one file, BASE.json or BASE.json.gz.
func TestExportPerfettoOneFile(t *testing.T) {
	p := profile(t, "sync")
	for _, tc := range []struct {
		base string
		gz   bool
		want string
	}{{"out", false, "out.json"}, {"out", true, "out.json.gz"}, {"out.json.gz", false, "out.json.gz"}, {"out.json", false, "out.json"}} {
		dir := t.TempDir()
		path, _, err := ExportPerfetto(context.Background(), p, filepath.Join(dir, tc.base), tc.gz, nil)
		if err != nil {
			t.Fatal(err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 || ents[0].Name() != tc.want || path != filepath.Join(dir, tc.want) {
			t.Fatalf("%s gz=%v: wrote %v, want only %s", tc.base, tc.gz, ents, tc.want)
		}
		b, _ := os.ReadFile(path)
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := out.ReadFrom(zr); err != nil {
				t.Fatal(err)
			}
			b = out.Bytes()
		}
		checkWellFormed(t, parseTrace(t, b))
	}
	if _, _, err := ExportPerfetto(context.Background(), p, "/nonexistent/dir/out", false, nil); err == nil {
		t.Error("an unwritable output should fail")
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"plain", `quote " and \ back`, "tab\tnl\n\x01", "ünï", "bad\xffutf8"} {
		var got string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); got != want {
			t.Errorf("%q round-trips as %q", s, got)
		}
	}
}

// A Parquet directory export of train gives the same trace as its SQLite
// export (only the profile path in the header differs).
func TestPerfettoParquetSameAsSQLite(t *testing.T) {
	pq := nsysxtest.Open(t, filepath.Join(testutil.Root(), "testdata", "profiles", "train_pqtdir"))
	var a, b bytes.Buffer
	if _, err := WritePerfetto(context.Background(), &a, profile(t, "train"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WritePerfetto(context.Background(), &b, pq, nil); err != nil {
		t.Fatal(err)
	}
	_, ra, _ := strings.Cut(a.String(), "\n")
	_, rb, _ := strings.Cut(b.String(), "\n")
	if ra != rb {
		t.Errorf("the traces differ (%d and %d bytes)", len(ra), len(rb))
	}
}
