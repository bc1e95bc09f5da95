# Injected problem: host-side batch preparation. Each step sleeps --sleep
# seconds on the host (standing in for data loading or preprocessing), then
# queues a short GPU step (about 0.3 ms): the GPU idles for nearly the whole
# sleep. Expected advice: host_stall, about sleep/step of the steps' time.
import time
import torch
import torch.cuda.nvtx as nvtx
from common import args, loop

a = args(40, sleep=0.020)
torch.manual_seed(0)
w = torch.randn(1024, 1024, device="cuda") / 32
x = torch.randn(1024, 1024, device="cuda")


def step():
    nvtx.range_push("prepare_batch")
    time.sleep(a.sleep)
    nvtx.range_pop()
    y = x
    for _ in range(4):
        y = torch.tanh(y @ w)


loop(a, step)
