#!/usr/bin/env python3
"""Writes the notebooks of this folder from the cell lists below (unexecuted).

    /usr/bin/python3 notebooks/make_notebooks.py [NAME.ipynb...]

Then execute them with the nsysx kernel (see README.md). Keep the cells here
and the .ipynb files in step: edit here, regenerate, re-execute.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
P = "../testdata/profiles/"


def md(src):
    return {"cell_type": "markdown", "metadata": {}, "source": src}


def go(src, check=None):
    meta = {"nsysx_check": check} if check else {}
    return {"cell_type": "code", "metadata": meta, "source": src, "outputs": [], "execution_count": None}

INTRO = [
    md("# 00 · Introduction: what a profile holds, and how to read it\n\n"
       "The first notebook of the nsysx workshop (see `README.md` in this folder for the course). It runs on the "
       "profile built into nsysx, so it needs no file: a real capture of `sync.cu` on an NVIDIA H200, a small CUDA "
       "C++ program that copies memory synchronously, sets memory, uses unified memory, runs kernels on three "
       "streams and stalls on the host for a while.\n\n"
       "You will learn:\n"
       "1. what Nsight Systems records (tables of timed events) and how the timeline is built from them;\n"
       "2. how to read the first two tables everybody looks at: GPU kernels and CUDA API calls;\n"
       "3. how the expert rules point at problems, and how to check them yourself in Go or SQL.\n\n"
       "Every cell is Go (the nsysx library is built in) or a `%` magic. Run them from the top with Shift-Enter."),
    md("## 1. Open the profile\n\n"
       "`%open` binds a profile to a Go variable. `sample` is the profile built into nsysx; any `.sqlite`, "
       "`.sqlite.gz`, `.nsys-rep` or Parquet export opens the same way."),
    go("%open sample"),
    md("## 2. A profile is a set of tables\n\n"
       "Nsight Systems writes each kind of event into its own table, one row per event, each with a `start` and an "
       "`end` in nanoseconds on one clock. The timeline you see in the Nsight Systems GUI is these rows drawn as bars:\n\n"
       "| table | one row per | drawn on |\n|---|---|---|\n"
       "| `CUPTI_ACTIVITY_KIND_RUNTIME` | CUDA API call (`cudaMemcpy`, `cudaLaunchKernel` ...) | the CPU thread that made it |\n"
       "| `CUPTI_ACTIVITY_KIND_KERNEL` | kernel execution | the GPU stream it ran on |\n"
       "| `CUPTI_ACTIVITY_KIND_MEMCPY`, `..._MEMSET` | copy or memset on the GPU | the GPU stream |\n"
       "| `NVTX_EVENTS` | a range or mark the program annotated | the CPU thread |\n"
       "| `OSRT_API` | an OS runtime call (`read`, `sem_wait`, `nanosleep` ...) | the CPU thread |\n\n"
       "The cell below counts the rows of each (tables a capture did not trace are absent)."),
    go('import "fmt"\n\n'
       'for _, name := range []string{"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",\n'
       '\t"CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS", "OSRT_API"} {\n'
       '\tif !sample.HasTable(name) {\n\t\tfmt.Printf("%-30s not recorded\\n", name)\n\t\tcontinue\n\t}\n'
       '\tt, err := sample.Load(name, "start")\n\tif err != nil {\n\t\tpanic(err)\n\t}\n'
       '\tfmt.Printf("%-30s %6d rows\\n", name, t.N)\n}'),
    md("**Timeline concepts.** A CPU thread *launches* a kernel with an API call (`cudaLaunchKernel`) that returns "
       "quickly; the kernel *runs* later on a GPU *stream* (a queue: work on one stream runs in order, streams run "
       "concurrently). The time between the call and the kernel's start is the launch latency. *Synchronous* calls "
       "(`cudaMemcpy` from pageable memory, `cudaDeviceSynchronize`) make the CPU wait until the GPU is done; while "
       "the CPU is busy elsewhere and launches nothing, the GPU sits *idle*. The chart below is the profile's "
       "timeline: NVTX ranges of the CPU threads above the GPU's streams."),
    go("%plot nvtx-timeline sample"),
    md("## 3. Where the GPU time goes: `cuda_gpu_kern_sum`\n\n"
       "One row per kernel name: `Time (%)` is its share of all kernel time, `Total Time` the sum over its "
       "`Instances`, then the average, median, minimum, maximum and standard deviation of one instance. Sorted by "
       "total time, so the first row is where optimisation pays most."),
    go("%nsys stats -r cuda_gpu_kern_sum sample"),
    md("Results are Go values, so a sentence about the data can be computed rather than typed:"),
    go('kern, _ := sample.Stats("cuda_gpu_kern_sum")\n'
       'fmt.Printf("%d kernel names; the top one, %s, takes %.1f%% of kernel time over %d instances.\\n",\n'
       '\tkern.Len(), kern.Col("Name").Text(0), kern.Col("Time").Value(0).AsFloat(), kern.Col("Instances").Value(0).I)'),
    md("## 4. Where the CPU waits: `cuda_api_sum`\n\n"
       "The same columns for CUDA API calls, measured on the CPU. Long synchronising calls at the top mean the CPU "
       "spends its time waiting for the GPU."),
    go("%nsys stats -r cuda_api_sum sample"),
    go('api, _ := sample.Stats("cuda_api_sum")\n'
       'fmt.Printf("The CPU spends most of its CUDA API time in %s: %.1f%% over %d calls.\\n",\n'
       '\tapi.Col("Name").Text(0), api.Col("Time").Value(0).AsFloat(), api.Col("Num Calls").Value(0).I)'),
    md("## 5. Memory operations\n\n"
       "Copies and memsets on the GPU, by time and by size. Host-to-device copies from pageable memory are "
       "synchronous and slow; pinned memory makes them asynchronous."),
    go("%nsys stats -r cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum sample"),
    md("## 6. The expert rules\n\n"
       "`%nsys analyze` runs nsys's rules: synchronous copies and memsets, synchronising API calls, GPU gaps "
       "(by default, times over 500 ms when the GPU ran nothing) and low-utilisation stretches. Each rule explains "
       "what it found and what to try."),
    go("%nsys analyze -r gpu_gaps,cuda_memcpy_sync sample"),
    md("The GPU's utilisation over time makes the gap visible: the bins where the GPU is idle are marked."),
    go("%plot gpu-util sample"),
    md("## 7. Ask your own question in SQL\n\n"
       "`%%sql` queries the export's tables directly (read-only). The sample has no file of its own, so this cell "
       "names the same capture in the repository."),
    go('%%sql ../testdata/profiles/sync.sqlite.gz\n'
       'SELECT s.value AS kernel, count(*) AS n, min("end" - start) AS min_ns, max("end" - start) AS max_ns\n'
       'FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName\n'
       'GROUP BY 1 ORDER BY 4 DESC'),
    md("## Exercises\n\n"
       "1. Which CUDA API call is made most often, and how much time does it take in total?\n\n"
       "<details><summary>Solution</summary>\n\n"
       "```go\napi, _ := sample.Stats(\"cuda_api_sum\")\nbest := 0\n"
       "for i := 0; i < api.Len(); i++ {\n\tif api.Col(\"Num Calls\").Value(i).I > api.Col(\"Num Calls\").Value(best).I {\n\t\tbest = i\n\t}\n}\n"
       "fmt.Println(api.Col(\"Name\").Text(best), api.Col(\"Num Calls\").Value(best).I, api.Col(\"Total Time\").Value(best).I)\n```\n"
       "</details>\n\n"
       "2. Lower the GPU-gap threshold to 1 ms. How many gaps are there now?\n\n"
       "<details><summary>Solution</summary>\n\n"
       "```\n%nsys analyze -r gpu_gaps:gap=1 sample\n```\n</details>\n\n"
       "3. In SQL, how much time do all `cudaMemcpy` calls take together?\n\n"
       "<details><summary>Solution</summary>\n\n"
       "```sql\n%%sql ../testdata/profiles/sync.sqlite.gz\n"
       "SELECT sum(r.\"end\" - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\n"
       "WHERE s.value LIKE 'cudaMemcpy%'\n```\n</details>\n\n"
       "**Next:** `10_workflow_training.ipynb` profiles a PyTorch training loop end to end."),
]


NOTEBOOKS = {
    "00_introduction.ipynb": INTRO,
    "test_kernel.ipynb": [
        md("# nsysx kernel test notebook\n\nExecuted by `cmd/nsysx/kernel_test.go` (nbconvert and the browser test). "
           "Cells tagged `nsysx_check` in their metadata are checked against nsys's own outputs in `testdata/golden/train`."),
        go("%open " + P + "train.sqlite.gz"),
        go("%nsys stats -r cuda_gpu_kern_sum train", "kern_sum"),
        go('train.Stats("cuda_api_sum")', "api_sum"),
        go("%nsys stats -q -r cuda_gpu_mem_size_sum -f csv train", "mem_csv"),
        go('import "fmt"\n'
           'k, err := train.Load("CUPTI_ACTIVITY_KIND_KERNEL", "start", "end")\n'
           "if err != nil {\n\tpanic(err)\n}\n"
           "var n, total int64\n"
           's, e := k.Col("start"), k.Col("end")\n'
           "for i := 0; i < s.Len(); i++ {\n\tn++\n\ttotal += e.Int(i) - s.Int(i)\n}\n"
           'fmt.Printf("kernels=%d total_ns=%d\\n", n, total)', "model"),
        go('%%sql train\nSELECT count(*) AS n, sum("end" - start) AS total FROM CUPTI_ACTIVITY_KIND_KERNEL', "sql"),
        go('res, _ := train.Stats("cuda_gpu_kern_sum")\nres.Col("Name").Text(0)', "top"),
    ],
    "01_first_look.ipynb": [
        md("# 01 · First look at a profile\n\n"
           "The sample profile built into nsysx: `sync.cu` on an H200 (synchronous copies, memsets, unified memory, "
           "three streams, a 700 ms host stall, NVTX ranges). What is in it, and where does the time go?\n\n"
           "`%open` binds a `*nsysx.Profile` to a Go variable; `sample` is the profile built into nsysx "
           "(`%open ../testdata/profiles/sync.sqlite.gz` opens the same capture from the repository)."),
        go("%open sample"),
        md("nsys's default `stats` set, as `nsys stats` would print it, but as tables (numbers grouped, long kernel "
           "names shortened: hover for the full name). Reports with no data are listed in one SKIPPED line at the end."),
        go("%nsys stats sample"),
        md("Reports are Go values too: `Stats` returns a `*nsysx.Result` with typed columns, computed by the "
           "compiled library; the cell only loops over 24 rows."),
        go('kern, _ := sample.Stats("cuda_gpu_kern_sum")\nkern'),
        go('import "fmt"\n'
           'for i := 0; i < kern.Len(); i++ {\n'
           '\tfmt.Printf("%-45.45s %5.1f%%  %8d ns\\n", kern.Col("Name").Text(i), kern.Col("Time").Value(i).AsFloat(), kern.Col("Total Time").Value(i).I)\n'
           "}"),
        md("Where the CPU waits: the CUDA API summary, then the same question in SQL on the export itself "
           "(read-only; the `.gz` is decompressed once into the nsysx cache)."),
        go('sample.Stats("cuda_api_sum")'),
        go("%%sql " + P + "sync.sqlite.gz\n"
           "SELECT s.value AS api, count(*) AS calls, sum(r.\"end\" - r.start) AS total_ns\n"
           "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\n"
           "GROUP BY 1 ORDER BY 3 DESC LIMIT 5"),
        md("And as a chart:"),
        go("%plot api sample"),
    ],
    "02_nvtx_projection.ipynb": [
        md("# 02 · NVTX ranges projected onto the GPU\n\n"
           "`train`: a small transformer training loop annotated with NVTX (`iteration N`, `forward`, `backward`, `log`). "
           "NVTX ranges are CPU-side; the projection reports (`nvtx_gpu_proj_*`, `nvtx_kern_sum`) attribute GPU work "
           "to the ranges that launched it."),
        go("%open " + P + "train.sqlite.gz"),
        go("%nsys stats -r nvtx_sum,nvtx_gpu_proj_sum train"),
        md("Which kernels each range launched:"),
        go("%nsys stats -r nvtx_kern_sum train"),
        md("Iteration times, from the NVTX summary in Go: one row per `iteration N` range."),
        go('import (\n\t"fmt"\n\t"sort"\n\t"strings"\n)\n'
           'ranges, _ := train.Stats("nvtx_sum")\n'
           "var iters []float64\n"
           "for i := 0; i < ranges.Len(); i++ {\n"
           '\tif strings.HasPrefix(ranges.Col("Range").Text(i), ":iteration ") {\n'
           '\t\titers = append(iters, float64(ranges.Col("Total Time").Value(i).I)/1e6)\n'
           "\t}\n}\n"
           "sort.Float64s(iters)\n"
           "sum := 0.0\n"
           "for _, v := range iters {\n\tsum += v\n}\n"
           'fmt.Printf("%d iterations: min %.1f ms, median %.1f ms, max %.1f ms, mean %.1f ms\\n",\n'
           "\tlen(iters), iters[0], iters[len(iters)/2], iters[len(iters)-1], sum/float64(len(iters)))"),
        go("%plot iterations train"),
        go('%plot nvtx-timeline --range "iteration 10" train'),
        md("The same iteration as an interactive timeline (wheel: zoom, drag: pan, hover: details and the arrows "
           "from a CUDA API call to its kernels; drawn by a small inline script, no network; a PNG where scripts "
           "do not run). With no window, `%nsys timeline` shows the second iteration."),
        go('%nsys timeline "iteration 10" train'),
        md("For the whole run, export a Perfetto trace and open it in ui.perfetto.dev or chrome://tracing:"),
        go("%nsys export -t perfetto --gzip -o /tmp/nsysx_train_trace train"),
    ],
    "03_before_after.ipynb": [
        md("# 03 · Before and after a fix\n\n"
           "`train` synchronises the host with the GPU every step (`cudaStreamSynchronize`); `fixed` is the same "
           "workload with the synchronisation removed. Same reports on both, then a Go diff of the two results."),
        go("%open " + P + "train.sqlite.gz as before\n%open " + P + "fixed.sqlite.gz as after"),
        go("%nsys stats -r cuda_api_sum before after"),
        md("A comparison table built in Go as a `*nsysx.Result`, so that it is shown like any report "
           "(`:dur_ns` columns get nsys's time headers)."),
        go('a, _ := before.Stats("cuda_api_sum")\n'
           'b, _ := after.Stats("cuda_api_sum")\n'
           "total := func(r *nsysx.Result) map[string]int64 {\n"
           "\tm := map[string]int64{}\n"
           "\tfor i := 0; i < r.Len(); i++ {\n"
           '\t\tm[r.Col("Name").Text(i)] = r.Col("Total Time").Value(i).I\n'
           "\t}\n\treturn m\n}\n"
           "ta, tb := total(a), total(b)\n"
           'diff := nsysx.NewResult("api_diff", "CUDA API time, before vs after", "Name", "Before:dur_ns", "After:dur_ns", "Change:dur_ns")\n'
           "for i := 0; i < a.Len(); i++ {\n"
           '\tname := a.Col("Name").Text(i)\n'
           "\tdiff.Add(nsysx.TextV(name), nsysx.IntV(ta[name]), nsysx.IntV(tb[name]), nsysx.IntV(tb[name]-ta[name]))\n"
           "}\n"
           "diff"),
        md("Is the change real? `%nsys compare` gives, per kernel, NVTX range and API function, the change with a "
           "95% bootstrap interval (over iterations here, as both profiles have NVTX iterations) and a verdict; "
           "names only one profile has are `new` or `vanished`."),
        go("%nsys compare before after"),
        md("The same from Go, to pick out rows:"),
        go('import (\n\t"fmt"\n\n\t"github.com/nsysx/nsysx/nsysx/compare"\n)\n'
           "c, _ := compare.Profiles(nil, before, after, nil)\n"
           'k := c.Find(compare.Kernel, "[all kernels]")\n'
           'fmt.Printf("kernel time per iteration: %.1f ms -> %.1f ms, %s (%+.1f%%, 95%% CI %+.1f%% to %+.1f%%)\\n",\n'
           "\tk.Before.PerIter/1e6, k.After.PerIter/1e6, k.Verdict, k.Change*100, k.Low*100, k.High*100)"),
        md("The compare chart shows each name's interval beside its bars:"),
        go("%plot compare before after"),
        go("%nsys analyze -r cuda_api_sync before after"),
    ],
    "04_multi_rank.ipynb": [
        md("# 04 · Two ranks of a data-parallel job\n\n"
           "`rank0` and `rank1`: the two processes of a two-GPU training run with NCCL all-reduce. "
           "Per-rank reports, the communication share of GPU time, and communication vs compute over time."),
        go("%open " + P + "rank0.sqlite.gz\n%open " + P + "rank1.sqlite.gz"),
        go("%nsys stats -r cuda_gpu_kern_sum rank0 rank1"),
        go('import (\n\t"fmt"\n\t"strings"\n)\n'
           "for _, p := range []*nsysx.Profile{rank0, rank1} {\n"
           '\tr, _ := p.Stats("cuda_gpu_kern_sum")\n'
           "\tvar nccl, all int64\n"
           "\tfor i := 0; i < r.Len(); i++ {\n"
           '\t\tns := r.Col("Total Time").Value(i).I\n'
           "\t\tall += ns\n"
           '\t\tif strings.HasPrefix(r.Col("Name").Text(i), "nccl") {\n'
           "\t\t\tnccl += ns\n\t\t}\n\t}\n"
           '\tfmt.Printf("%s: NCCL %.1f%% of %.2f s of kernel time\\n", p.Base(), 100*float64(nccl)/float64(all), float64(all)/1e9)\n'
           "}"),
        go("%plot nccl rank0 rank1"),
        md("Kernel time per stream of rank 0, in SQL:"),
        go('%%sql rank0\nSELECT streamId, count(*) AS kernels, sum("end" - start) AS gpu_ns\n'
           "FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 3 DESC"),
    ],
    "05_sync_and_rules.ipynb": [
        md("# 05 · Synchronisation and the expert rules\n\n"
           "`sync` (the same capture as the built-in sample) on purpose does what slows GPU programs down: "
           "synchronous copies and memsets, pageable memory, a long host stall. `nsys analyze`'s rules find them."),
        go("%open " + P + "sync.sqlite.gz"),
        go("%nsys analyze sync"),
        md("The GPU gaps rule with a 100 ms threshold, as a Go value; the total idle time it found:"),
        go('gaps, _ := sync.Analyze("gpu_gaps:gap=100")\n'
           "var idle int64\n"
           "for i := 0; i < gaps.Len(); i++ {\n"
           '\tidle += gaps.Col("Duration").Value(i).I\n'
           "}\n"
           "gaps"),
        go('import "fmt"\nfmt.Printf("%d gaps, %.1f ms idle\\n", gaps.Len(), float64(idle)/1e6)'),
        md("The synchronous copies, straight from the export:"),
        go("%%sql sync\n"
           "SELECT s.value AS api, r.\"end\" - r.start AS ns, r.start\n"
           "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\n"
           "WHERE s.value LIKE 'cudaMemcpy%' OR s.value LIKE 'cudaMemset%'\n"
           "ORDER BY ns DESC LIMIT 10"),
        go("%plot gpu-util sync"),
    ],
    "06_tables.ipynb": [
        md("# 06 · Results as tables\n\n"
           "Every report is a `*nsysx.Result`: typed columns that sort, filter, group and join like a data frame. "
           "Each method returns a new result (the receiver is unchanged), so calls chain; a mistake (an unknown "
           "column, operator or aggregation) is an error naming the closest valid name, shown in place of the table. "
           "Two ranks of a data-parallel job, `rank0` and `rank1`."),
        go("%open " + P + "rank0.sqlite.gz\n%open " + P + "rank1.sqlite.gz\n"
           'k, _ := rank0.Stats("cuda_gpu_kern_sum")\nk.Columns()'),
        md("The columns, their nsys unit tags and types (`Schema`):"),
        go("k.Schema()"),
        md("`Sort` by one or more columns (`-` for descending), `Select` columns, `Head` and `Tail`:"),
        go('k.Sort("-Avg", "Name").Select("Name", "Instances", "Avg").Head(5)'),
        go('k.Sort("Instances").Select("Name", "Instances").Tail(3)'),
        md("`Where` with a column, an operator (`==` `!=` `<` `<=` `>` `>=` `contains` `startswith` `endswith` `matches`) "
           "and a value; `Filter` with any Go predicate over a `Row`:"),
        go('k.Where("Name", "startswith", "nccl").Where("Instances", ">=", 100).Select("Name", "Instances", "Total Time")'),
        go('k.Filter(func(row nsysx.Row) bool {\n\treturn row.Float("Max") > 4*row.Float("Med")\n}).Select("Name", "Med", "Max")'),
        md("`GroupBy` and `Agg` (`count`, `sum`, `mean`, `min`, `max`, `median`, `std`, `first`, `last`; "
           "`as` renames): the kernels of the GPU trace per stream. Durations keep their unit."),
        go('tr, _ := rank0.Stats("cuda_gpu_trace")\n'
           'tr.Where("GrdX", "!=", nil).GroupBy("Strm").Agg("count(*) as Kernels", "sum(Duration) as Busy", "median(Duration)", "max(Duration)")'),
        md("`Join` two results on key columns: rank 0 against rank 1, kernel by kernel. Columns both sides have get the "
           "profile's name; `LeftJoin` and `OuterJoin` keep unmatched rows."),
        go('k1, _ := rank1.Stats("cuda_gpu_kern_sum")\n'
           'k.Join(k1, "Name").Select("Name", "Total Time (rank0)", "Total Time (rank1)").Head(5)'),
        go('top := k1.Sort("-Total Time").Head(10)     // rank 1\'s ten longest kernels\n'
           'fmt.Println(k.Join(top, "Name").Len(), k.LeftJoin(top, "Name").Len(), top.OuterJoin(k.Head(5), "Name").Len())'),
        md("Typed access to cells and whole columns, and an Arrow record batch for Arrow tools:"),
        go('avg := k.Col("Avg")\n'
           'fmt.Println(avg.Float(0), k.Col("Instances").Int(0), k.Col("Name").String(0))\n'
           'fmt.Println(len(avg.Floats()), k.Col("Instances").Ints()[:3], len(k.Col("Name").Strings()))\n'
           "rec, _ := format.Record(k)\n"
           'fmt.Println(rec.NumRows(), "rows,", rec.NumCols(), "columns:", rec.ColumnName(1))'),
        md("Mistakes are errors, never `nil` or a panic:"),
        go('k.Sort("Avgg")'),
        go('_, err := k.Column("Totl Time")\nerr'),
        md("`%%sql` reads results by their variable names, beside the profile's own tables (read-only):"),
        go('%%sql\nSELECT "Name", "Instances", "Avg" FROM k WHERE "Instances" >= 200 ORDER BY "Avg" DESC LIMIT 5'),
        md("Outputs of several profiles say which profile each is:"),
        go("%nsys stats -r cuda_api_sum rank0 rank1"),
    ],
}


def write(name, cells):
    nb = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"name": "nsysx", "display_name": "nsysx (Go)", "language": "go"},
            "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    for i, c in enumerate(cells):
        c["id"] = "%s-%d" % (name.split(".")[0].replace("_", "-"), i)
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(nb, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    import sys
    for name, cells in NOTEBOOKS.items():
        if len(sys.argv) == 1 or name in sys.argv[1:]:
            write(name, cells)
