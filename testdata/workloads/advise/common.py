# Shared helpers for the advise validation workloads: every workload marks
# each measured step with an NVTX range named "step" and runs a few warm-up
# steps before the first one, so that CUDA start-up is outside the steps.
import argparse
import torch
import torch.cuda.nvtx as nvtx


def args(steps, **extra):
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=steps)
    p.add_argument("--warmup", type=int, default=3)
    for k, v in extra.items():
        p.add_argument("--" + k, type=type(v), default=v)
    return p.parse_args()


def loop(a, step):
    for _ in range(a.warmup):
        step()
    torch.cuda.synchronize()
    for _ in range(a.steps):
        nvtx.range_push("step")
        step()
        nvtx.range_pop()
    torch.cuda.synchronize()
