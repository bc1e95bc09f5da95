# Injected problem: hundreds of tiny kernels per step. Each step launches
# --kernels element-wise kernels on a 256-element tensor; each runs for a
# few microseconds, less than it takes the host to launch the next, so the
# GPU idles between them. Expected advice: launch_bound.
import torch
from common import args, loop

a = args(30, kernels=400)
x = torch.zeros(256, device="cuda")


def step():
    for _ in range(a.kernels):
        x.add_(1.0)


loop(a, step)
