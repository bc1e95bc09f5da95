# A healthy loop: large bf16 GEMMs queued without any synchronisation, so
# the GPU is busy from the first step to the last. Expected advice:
# gpu_bound first (the GEMM kernel), nothing else above a few percent.
import torch
from common import args, loop

a = args(30, n=8192, gemms=6)
torch.manual_seed(0)
x = torch.randn(a.n, a.n, device="cuda", dtype=torch.bfloat16)
w = torch.randn(a.n, a.n, device="cuda", dtype=torch.bfloat16) / 90


def step():
    y = x
    for _ in range(a.gemms):
        y = y @ w


loop(a, step)
