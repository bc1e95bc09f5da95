# A CUDA-graph step: the launch-bound step (hundreds of tiny kernels) plus two
# GEMMs, captured once with torch.cuda.graphs and replayed every step, so the
# host launches one graph per step. Captured twice: with nsys's default
# --cuda-graph-trace=graph (no per-kernel rows) and with =node.
import torch
from common import args, loop

a = args(30, kernels=400)
torch.manual_seed(0)
x = torch.zeros(256, device="cuda")
m = torch.randn(2048, 2048, device="cuda")
w = torch.randn(2048, 2048, device="cuda") / 45


def body():
    for _ in range(a.kernels):
        x.add_(1.0)
    y = torch.tanh(m @ w)
    return torch.tanh(y @ w)


s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        body()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    body()
loop(a, g.replay)
