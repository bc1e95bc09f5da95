#!/bin/bash
# Captures straggler.py on every GPU of this machine with nsys on every rank,
# once clean and once with rank K sleeping S ms before the backward pass of
# steps 3, 5, 7 and 9; exports each rank to SQLite and runs nsys's NCCL
# recipes on each run for goldens:
#   capture.sh OUTDIR [K] [S]      (nsys on PATH, or T naming its directory)
# OUTDIR/<run>/rank<N>.{nsys-rep,sqlite}, OUTDIR/<run>/recipes/<recipe>/...
set -u
D=$(cd "$(dirname "$0")" && pwd)
O=${1:?usage: capture.sh OUTDIR [K] [S]}
K=${2:-1}
S=${3:-30}
NSYS=${T:+$T/}nsys
N=$(nvidia-smi -L | wc -l)
mkdir -p "$O"
run() { # NAME [straggler.py args...]
  local name=$1 t0=$SECONDS
  shift
  mkdir -p "$O/$name"
  timeout 240 torchrun --nproc-per-node "$N" --no-python bash -c \
    "$NSYS profile -t cuda,nvtx,osrt --capture-range=cudaProfilerApi --capture-range-end=stop -s none --cpuctxsw=none -f true -o $O/$name/rank\$RANK python3 $D/straggler.py $*" \
    >"$O/$name/run.log" 2>&1 || { echo "$name: capture failed"; tail -5 "$O/$name/run.log"; return 1; }
  for r in "$O/$name"/rank*.nsys-rep; do
    $NSYS export -t sqlite -f true -o "${r%.nsys-rep}.sqlite" "$r" >/dev/null 2>&1 || echo "$name: export of $r failed"
  done
  for rc in nccl_sum nccl_gpu_overlap_trace nccl_gpu_time_util_map nccl_gpu_proj_sum cuda_gpu_kern_sum nvtx_gpu_proj_trace; do
    $NSYS recipe "$rc" --input "$O/$name"/rank*.nsys-rep --output "$O/$name/recipes/$rc" >"$O/$name/recipes-$rc.log" 2>&1 || echo "$name: recipe $rc failed"
  done
  echo "$name: $N ranks, $((SECONDS - t0)) s"
}
run clean
run straggler --straggler "$K" --sleep-ms "$S"
