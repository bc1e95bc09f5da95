#!/usr/bin/env python3
"""Writes the notebooks of this folder from the cell lists below (unexecuted).

    /usr/bin/python3 notebooks/make_notebooks.py

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


NOTEBOOKS = {
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
           "The sample profile built into nsysx (`sync.cu` on an H200: synchronous copies, memsets, unified memory, "
           "three streams, a 700 ms host stall, one NVTX range). What is in it, and where does the time go?\n\n"
           "`%open` binds a `*nsysx.Profile` to a Go variable; `sample` is the profile built into nsysx."),
        go("%open sample"),
        md("nsys's default `stats` set, as `nsys stats` would print it, but as tables. Reports with no data are listed "
           "in one SKIPPED line at the end."),
        go("%nsys stats sample"),
        md("Reports are Go values too: `Stats` returns a `*nsysx.Result` with typed columns."),
        go('kern, _ := sample.Stats("cuda_gpu_kern_sum")\nkern'),
        go('import "fmt"\n'
           'for i := 0; i < kern.Len(); i++ {\n'
           '\tfmt.Printf("%-40.40s %6.1f%%\\n", kern.Col("Name").Text(i), kern.Col("Time").Value(i).AsFloat())\n'
           "}"),
        md("The raw tables are there as well, loaded column by column:"),
        go('len(sample.Tables())'),
        go('%%sql sample_file\nSELECT 1'.replace("sample_file", P + "sync.sqlite.gz") + "\n"),
    ],
}

# Replace the last cell of 01 with a real query.
NOTEBOOKS["01_first_look.ipynb"][-1] = go(
    "%%sql " + P + "sync.sqlite.gz\n"
    "SELECT s.value AS api, count(*) AS calls, sum(r.\"end\" - r.start) AS total_ns\n"
    "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId\n"
    "GROUP BY 1 ORDER BY 3 DESC LIMIT 10")


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
    for name, cells in NOTEBOOKS.items():
        write(name, cells)
