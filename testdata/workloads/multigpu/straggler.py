# Data-parallel training over NCCL with a straggler we inject ourselves, for
# the distributed answers (critical-path across ranks, advise's straggler,
# the NCCL recipes). Run under torchrun, one process per GPU:
#   torchrun --nproc-per-node N straggler.py [--straggler K --sleep-ms S --steps-with 3,5,7]
# Each step is an NVTX range "step N" holding "data", "forward", "backward"
# and "optimizer". Traffic unlike ddp.py's: DDP's gradient all-reduce in
# 10 MB buckets, plus an all-gather of every rank's loss and a broadcast of
# a 4 MiB tensor from rank 0 each step. With --straggler K, rank K sleeps
# --sleep-ms ms on the host just before the backward pass of the steps in
# --steps-with (all steps when empty), so the other ranks wait for it in
# the backward pass's all-reduce.
import argparse
import os
import sys
import time

import torch
import torch.cuda.nvtx as nvtx
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=12)
p.add_argument("--warmup", type=int, default=4)
p.add_argument("--straggler", type=int, default=-1)
p.add_argument("--sleep-ms", type=float, default=30.0)
p.add_argument("--steps-with", default="3,5,7,9")
a = p.parse_args()

dist.init_process_group("nccl")
rank, world = dist.get_rank(), dist.get_world_size()
local = int(os.environ.get("LOCAL_RANK", rank))
torch.cuda.set_device(local)
torch.manual_seed(rank)
d = 1536
model = nn.Sequential(*[nn.Sequential(nn.Linear(d, 3 * d), nn.ReLU(), nn.Linear(3 * d, d)) for _ in range(8)]).cuda()
ddp = DDP(model, bucket_cap_mb=10)
opt = torch.optim.SGD(ddp.parameters(), lr=1e-3)
shared = torch.zeros(1024 * 1024, device="cuda")
inject = {int(s) for s in a.steps_with.split(",") if s} if a.steps_with else None
losses = [torch.zeros(1, device="cuda") for _ in range(world)]

for i in range(a.warmup + a.steps):
    step = i - a.warmup
    if step == 0:
        torch.cuda.synchronize()
        dist.barrier()
        torch.cuda.cudart().cudaProfilerStart()
    if step >= 0:
        nvtx.range_push(f"step {step}")
    with nvtx.range("data"):
        x = torch.randn(32, 128, d, device="cuda")
    with nvtx.range("forward"):
        loss = ddp(x).float().pow(2).mean()
    if rank == a.straggler and step >= 0 and (inject is None or step in inject):
        with nvtx.range("injected sleep"):
            time.sleep(a.sleep_ms / 1000)
    with nvtx.range("backward"):
        loss.backward()
    with nvtx.range("optimizer"):
        opt.step()
        opt.zero_grad(set_to_none=True)
    with nvtx.range("exchange"):
        dist.all_gather(losses, loss.detach().reshape(1))
        dist.broadcast(shared, 0)
    torch.cuda.synchronize()
    if step >= 0:
        nvtx.range_pop()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
dist.barrier()
dist.destroy_process_group()
print("rank", rank, "done", file=sys.stderr)
