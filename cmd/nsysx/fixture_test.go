package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The hand-made export testdata/fixtures/cuda_edge.sqlite (see its generator,
// make_cuda_fixture.py): two processes sharing correlation id 1, two devices,
// a CUDA graph launch of three kernels on three streams, a kernel without a
// launching call, names with a comma and quotes, a TAB and a newline, memcpys
// of unknown kind and of zero duration. Expected values are worked out by
// hand from the rows.
func edgeFixture() string {
	return filepath.Join(testutil.Root(), "testdata", "fixtures", "cuda_edge.sqlite")
}

func TestCUDAEdgeCases(t *testing.T) {
	in := edgeFixture()
	cases := []struct {
		args []string
		want string
	}{
		// kernA durations 10,20,30,45: total 105, avg 26.25 -> 26.3 (ties away
		// from zero), even-count median 25.0, sample stdev sqrt(668.75/3) =
		// 14.93; one-row groups have stdev 0.0; Time % of 335 ns in all.
		{[]string{"-r", "cuda_gpu_kern_sum", "-f", "csv"}, "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n" +
			"36.7,123,3,41.0,41.0,40,42,1.0,tab\there\n" +
			"31.3,105,4,26.3,25.0,10,45,14.9,kernA\n" +
			"29.9,100,1,100.0,100.0,100,100,0.0,new\nline\n" +
			"2.1,7,1,7.0,7.0,7,7,0.0,\"kernB, \"quoted\"\"\n"},
		// TSV: a TAB inside a value becomes a space; with esc, the two characters \t.
		{[]string{"-r", "cuda_gpu_kern_sum:base", "-f", "tsv:nohdr"}, "36.7\t123\t3\t41.0\t41.0\t40\t42\t1.0\ttab here\n" +
			"31.3\t105\t4\t26.3\t25.0\t10\t45\t14.9\tkA\n" +
			"29.9\t100\t1\t100.0\t100.0\t100\t100\t0.0\tnew\nline\n" +
			"2.1\t7\t1\t7.0\t7.0\t7\t7\t0.0\tkernB, \"quoted\"\n"},
		// The graph launch: one call, three kernels; the kernel nobody launched
		// is absent; process 200's kernel joins process 200's call.
		{[]string{"-r", "cuda_kern_exec_trace", "-f", "csv"}, "API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),Kernel Dur (ns),Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name\n" +
			"1000,5,1005,95,1100,10,110,100,100,0,cudaLaunchKernel,   4    2    1, 128    1    1,kernA\n" +
			"1500,10,1510,90,1600,7,107,200,201,1,cudaLaunchKernel,   4    2    1, 128    1    1,\"kernB, \"quoted\"\"\n" +
			"2000,5,2005,95,2100,20,120,100,100,0,cudaLaunchKernel,   4    2    1, 128    1    1,kernA\n" +
			"3000,5,3005,95,3100,30,130,100,100,0,cudaLaunchKernel,   4    2    1, 128    1    1,kernA\n" +
			"4000,5,4005,95,4100,45,145,100,100,0,cudaLaunchKernel,   4    2    1, 128    1    1,kernA\n" +
			"6000,50,6050,50,6100,40,140,100,100,0,cudaGraphLaunch_v10000,   4    2    1, 128    1    1,tab\there\n" +
			"6000,50,6050,51,6101,41,142,100,100,0,cudaGraphLaunch_v10000,   4    2    1, 128    1    1,tab\there\n" +
			"6000,50,6050,52,6102,42,144,100,100,0,cudaGraphLaunch_v10000,   4    2    1, 128    1    1,tab\there\n"},
		// Throughput: 3000 B * (1e9 div 300 ns) = 9999999000 B/s; 0 ns gives
		// none; an unknown copy kind has no name; each device by its own name.
		{[]string{"-r", "cuda_gpu_trace", "-f", "csv"}, "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n" +
			"1100,10,1,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,7,kernA\n" +
			"1600,7,1,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU One (1),1,,13,\"kernB, \"quoted\"\"\n" +
			"2100,20,2,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,7,kernA\n" +
			"3100,30,3,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,7,kernA\n" +
			"4100,45,4,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,7,kernA\n" +
			"6100,40,5,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,14,tab\there\n" +
			"6101,41,5,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,15,tab\there\n" +
			"6102,42,5,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,16,tab\there\n" +
			"7000,300,10,,,,,,,,,,0.003,9999.999,Pageable,Device,GPU Zero (0),1,,7,[CUDA memcpy Host-to-Device]\n" +
			"7500,0,11,,,,,,,,,,0.001,,Pageable,Device,GPU Zero (0),1,,7,[CUDA memcpy Host-to-Device]\n" +
			"7600,50,12,,,,,,,,,,0.001,10000.000,Pageable,Device,GPU Zero (0),1,,7,\n" +
			"8000,20,13,,,,,,,,,,0.004,204800.000,Device,,GPU Zero (0),1,,7,[CUDA memset]\n" +
			"9000,100,99,4,2,1,128,1,1,32,0.000,0.001,,,,,GPU Zero (0),1,,7,new\nline\n"},
		// Sizes in bytes: the unknown copy kind drops out; even-count median 2000.0.
		{[]string{"-r", "cuda_gpu_mem_size_sum", "-f", "csv:mem=B"}, "Total (B),Count,Avg (B),Med (B),Min (B),Max (B),StdDev (B),Operation\n" +
			"4096,1,4096.0,4096,4096,4096,0.0,[CUDA memset]\n" +
			"4000,2,2000.0,2000.0,1000,3000,1414.213562373095,[CUDA memcpy Host-to-Device]\n"},
		// JSON escapes quotes and TABs but not newlines.
		{[]string{"-r", "cuda_gpu_kern_sum", "-f", "json"}, ""},
	}
	for _, c := range cases {
		args := append(append([]string{"stats", "-q", "-o", "-"}, c.args...), in)
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		got := strings.TrimSuffix(stdout, "\n") // the console's extra line
		if c.want == "" {
			for _, s := range []string{`"Name": "tab\there"`, "\"Name\": \"new\nline\"", `"Name": "kernB, \"quoted\""`} {
				if !strings.Contains(got, s) {
					t.Errorf("json lacks %q:\n%s", s, got)
				}
			}
			continue
		}
		if d := testutil.Diff(got, c.want); d != "" {
			t.Errorf("%v: %s", c.args, d)
		}
	}
}

// TestMissingTables: reports over a profile without the tables they need print
// nsys's SKIPPED line and exit 0.
func TestMissingTables(t *testing.T) {
	in := edgeFixture() // no NVTX, no OS runtime, no unified memory tables
	stdout, stderr, code := runCLI(t, "stats", "-r", "nvtx_sum,osrt_sum,um_sum,cuda_gpu_kern_sum:nvtx-name", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SKIPPED: " + in + " does not contain NV Tools Extension (NVTX) data.",
		"SKIPPED: " + in + " does not contain OS Runtime trace data.",
		"SKIPPED: " + in + " does not contain CUDA Unified Memory CPU page faults data.",
	} {
		if !strings.Contains(stdout, want+"\n\n") {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}
	if strings.Count(stdout, "does not contain NV Tools Extension (NVTX) data.") != 2 {
		t.Errorf("nvtx-name without NVTX should be SKIPPED:\n%s", stdout)
	}
}
