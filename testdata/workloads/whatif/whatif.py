# Before/after pairs for critical-path's what-if predictions: one step
# function whose parts can each be changed alone, so that "after" differs
# from "before" in exactly one thing.
#   --sleep S   host work outside CUDA (an NVTX range "data"), seconds
#   --rows R    rows of the GEMM chain's input: halving R halves each GEMM
#   --item 0|1  read the step's loss back with .item() (the host waits)
# Each step is an NVTX range "step" after a few warm-up steps.
import os
import sys
import time

import torch
import torch.cuda.nvtx as nvtx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "advise"))
from common import args, loop  # noqa: E402

a = args(20, sleep=0.004, rows=8192, n=8192, gemms=4, item=1)
torch.manual_seed(0)
x = torch.randn(a.rows, a.n, device="cuda", dtype=torch.bfloat16)
w = torch.randn(a.n, a.n, device="cuda", dtype=torch.bfloat16) / 90
batch = torch.randn(4096, 1024).pin_memory()


def step():
    nvtx.range_push("data")
    time.sleep(a.sleep)
    xb = batch.to("cuda", non_blocking=True)
    nvtx.range_pop()
    y = x
    for _ in range(a.gemms):
        y = y @ w
    loss = y.float().mean() + xb.mean()
    if a.item:
        loss.item()


loop(a, step)
