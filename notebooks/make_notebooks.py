#!/usr/bin/env python3
"""Writes the notebooks of this folder from the cell lists below (unexecuted).

    /usr/bin/python3 notebooks/make_notebooks.py

Then execute them with the nsysx kernel (see README.md). Keep the cells here
and the .ipynb files in step: edit here, regenerate, re-execute.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import nb_advise  # noqa: E402
import nb_critpath  # noqa: E402
import nb_more  # noqa: E402
import nb_ranks  # noqa: E402
import nb_tables  # noqa: E402
import nb_training  # noqa: E402
from nbcells import P, exercises, go, md  # noqa: E402

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
       '\tt, err := sample.Load(ctx, name, "start")\n\tif err != nil {\n\t\tpanic(err)\n\t}\n'
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
    md("Results are Go values, so a sentence about the data can be computed rather than typed. Library calls take "
       "`ctx` first, the cell's context (every cell has one): interrupting the cell cancels the call."),
    go('kern, _ := sample.Stats(ctx, "cuda_gpu_kern_sum")\n'
       'fmt.Printf("%d kernel names; the top one, %s, takes %.1f%% of kernel time over %d instances.\\n",\n'
       '\tkern.Len(), kern.Col("Name").Text(0), kern.Col("Time").Value(0).AsFloat(), kern.Col("Instances").Value(0).I)'),
    md("## 4. Where the CPU waits: `cuda_api_sum`\n\n"
       "The same columns for CUDA API calls, measured on the CPU. Long synchronising calls at the top mean the CPU "
       "spends its time waiting for the GPU."),
    go("%nsys stats -r cuda_api_sum sample"),
    go('api, _ := sample.Stats(ctx, "cuda_api_sum")\n'
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
    exercises([
        ("Which CUDA API call is made most often, and how much time does it take in total?",
         'api, _ := sample.Stats(ctx, "cuda_api_sum")\nbest := 0\n'
         'for i := 0; i < api.Len(); i++ {\n\tif api.Col("Num Calls").Value(i).I > api.Col("Num Calls").Value(best).I {\n\t\tbest = i\n\t}\n}\n'
         'fmt.Println(api.Col("Name").Text(best), api.Col("Num Calls").Value(best).I, api.Col("Total Time").Value(best).I)'),
        ("Lower the GPU-gap threshold to 1 ms. How many gaps are there now?", "%nsys analyze -r gpu_gaps:gap=1 sample", ""),
        ("In SQL, how much time do all `cudaMemcpy` calls take together?",
         "%%sql ../testdata/profiles/sync.sqlite.gz\n"
         'SELECT sum(r."end" - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\n'
         "WHERE s.value LIKE 'cudaMemcpy%'", "sql"),
    ], "**Next:** `01_training_end_to_end.ipynb` profiles a PyTorch training loop end to end."),
]


NOTEBOOKS = {
    "00_introduction.ipynb": INTRO,
    "test_kernel.ipynb": [
        md("# nsysx kernel test notebook\n\nExecuted by `cmd/nsysx/kernel_test.go` (nbconvert and the browser test). "
           "Cells tagged `nsysx_check` in their metadata are checked against nsys's own outputs in `testdata/golden/train`."),
        go("%open " + P + "train.sqlite.gz"),
        go("%nsys stats -r cuda_gpu_kern_sum train", "kern_sum"),
        go('train.Stats(ctx, "cuda_api_sum")', "api_sum"),
        go("%nsys stats -q -r cuda_gpu_mem_size_sum -f csv train", "mem_csv"),
        go('import "fmt"\n'
           'k, err := train.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end")\n'
           "if err != nil {\n\tpanic(err)\n}\n"
           "var n, total int64\n"
           's, e := k.Col("start"), k.Col("end")\n'
           "for i := 0; i < s.Len(); i++ {\n\tn++\n\ttotal += e.Int(i) - s.Int(i)\n}\n"
           'fmt.Printf("kernels=%d total_ns=%d\\n", n, total)', "model"),
        go('%%sql train\nSELECT count(*) AS n, sum("end" - start) AS total FROM CUPTI_ACTIVITY_KIND_KERNEL', "sql"),
        go('res, _ := train.Stats(ctx, "cuda_gpu_kern_sum")\nres.Col("Name").Text(0)', "top"),
    ],
    "01_training_end_to_end.ipynb": nb_training.TRAINING,
    "02_gpu_idle_time.ipynb": nb_training.IDLE,
    "03_distributed_training.ipynb": nb_ranks.DISTRIBUTED,
    "04_iteration_consistency.ipynb": nb_ranks.ITERATIONS,
    "05_kernels_to_source.ipynb": nb_more.SOURCE,
    "06_before_after.ipynb": nb_more.BEFORE_AFTER,
    "07_cudnn_vs_cublas.ipynb": nb_more.LIBRARIES,
    "08_dataloader_copies.ipynb": nb_more.COPIES,
    "09_tables.ipynb": nb_tables.TABLES,
    "10_what_to_fix_first.ipynb": nb_advise.ADVISE,
    "11_critical_path.ipynb": nb_critpath.CRITPATH,
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
    only = sys.argv[1:]
    for name, cells in NOTEBOOKS.items():
        if not only or name in only:
            write(name, cells)
