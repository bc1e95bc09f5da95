# Injected problem: a synchronous copy from pageable host memory every step,
# followed by .item(). The batch (--mb MiB of float32) lives in ordinary
# (pageable) memory and is copied with .to("cuda") without non_blocking, so
# the host waits for each copy; the GPU step after it is short (about 1 ms).
# Expected advice: pageable_memcpy (or sync_memcpy), the copies' time.
import torch
from common import args, loop

a = args(30, mb=32)
torch.manual_seed(0)
batch = torch.randn(a.mb * 1024 * 1024 // 4)  # pageable: no pin_memory()
w = torch.randn(1024, 1024, device="cuda") / 32


def step():
    xb = batch.to("cuda")  # pageable, synchronous
    y = xb[: 1024 * 1024].view(1024, 1024)
    for _ in range(4):
        y = torch.tanh(y @ w)
    y.sum().item()  # the host waits for the GPU


loop(a, step)
