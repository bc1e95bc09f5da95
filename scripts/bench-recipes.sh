#!/usr/bin/env bash
# Side-by-side benchmark of `nsysx recipe` against `nsys recipe` (run on a
# machine with Nsight Systems and a python with pandas/pyarrow, e.g. the GPU
# machine). Whole process, best of REPEAT runs each, exports cached (both tools read the exports made
# beside each report), wall time from bash's clock around /usr/bin/time
# (microseconds: /usr/bin/time's own %e has 10 ms steps), peak RSS from
# /usr/bin/time, every output compared with pqdiff.
#   bash scripts/bench-recipes.sh NSYS NSYSX 'PQDIFF COMMAND' SMALL_DIR [LARGE_DIR]
# SMALL_DIR / LARGE_DIR hold the .nsys-rep files (e.g. rank0/rank1 x4, or one
# long train.py capture copied as eight ranks).
set -uo pipefail
NSYS=$1 NSYSX=$2 PQDIFF=$3
shift 3
# REPEAT (default 3): each command runs up to REPEAT times and the best
# wall time is kept (with the peak RSS of that run), for both tools alike;
# a command whose first run takes over 20 s runs once.
REPEAT=${REPEAT:-3}
# RECIPES (default: all six below) limits the run to the named recipes.
RECIPES=${RECIPES:-"cuda_gpu_kern_sum nvtx_gpu_proj_trace nccl_gpu_overlap_trace cuda_gpu_time_util_map gpu_time_util nvtx_pace"}
measure() { # label outdir cmd... -> "label wall_s peak_MB" (best of REPEAT)
  local label=$1 out=$2; shift 2
  local best="" bestkb=0 k
  for k in $(seq "$REPEAT"); do
    rm -rf "$out"
    local t0=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o /tmp/bench.time "$@" >/tmp/bench.out 2>&1 || { echo "$label FAILED: $(tail -3 /tmp/bench.out)"; return 1; }
    local t1=$EPOCHREALTIME
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    read -r kb </tmp/bench.time
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall bestkb=$kb; fi
    awk -v a="$wall" 'BEGIN { exit !(a > 20) }' && break
  done
  printf "%s %s %d\n" "$label" "$best" $((bestkb / 1024))
}
warm() { # export every report once (sqlite for nsysx and the rule recipes, parquetdir for the frame recipes)
  local dir=$1
  for f in "$dir"/*.nsys-rep; do
    b=${f%.nsys-rep}
    [ -f "$b.sqlite" ] || "$NSYS" export -t sqlite -f true -o "$b.sqlite" "$f" >/dev/null 2>&1 &
  done
  wait
  "$NSYS" recipe cuda_gpu_kern_sum --input "$dir" --output /tmp/warm-$$ >/dev/null 2>&1
  rm -rf /tmp/warm-$$
  cat "$dir"/*.sqlite >/dev/null # nsysx's exports in the page cache too, as nsys's are after its run
}
bench() { # dir recipe [extra args]
  local dir=$1 r=$2; shift 2
  a=$(measure "nsys" /tmp/o-nsys "$NSYS" recipe "$r" --input "$dir" --output /tmp/o-nsys "$@") || return
  b=$(measure "nsysx" /tmp/o-nsysx "$NSYSX" recipe "$r" --input "$dir" --output /tmp/o-nsysx "$@") || return
  same=identical
  if ! ls /tmp/o-nsys/*.parquet >/dev/null 2>&1 && ! ls /tmp/o-nsysx/*.parquet >/dev/null 2>&1; then
    same="both: no output (no data)"
  else
    $PQDIFF /tmp/o-nsys /tmp/o-nsysx >/tmp/bench.diff 2>&1 || same="DIFFERENT: $(head -c 300 /tmp/bench.diff)"
  fi
  set -- $a $b
  awk -v r="$r" -v n="$(ls "$dir"/*.nsys-rep | wc -l)" -v t1="$2" -v m1="$3" -v t2="$5" -v m2="$6" -v s="$same" \
    'BEGIN { printf "| %s | %d | %.3f / %d MB | %.3f / %d MB | %.1fx | %s |\n", r, n, t1, m1, t2, m2, t1/(t2>0?t2:0.0005), s }'
}
echo "| recipe | reports | nsys s / peak RSS | nsysx s / peak RSS | ratio | outputs |"
echo "|---|---|---|---|---|---|"
for dir in "$@"; do
  warm "$dir"
  for r in $RECIPES; do
    if [ "$r" = nvtx_pace ]; then bench "$dir" nvtx_pace --name forward; else bench "$dir" "$r"; fi
  done
done
