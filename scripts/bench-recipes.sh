#!/usr/bin/env bash
# Side-by-side benchmark of `nsysx recipe` against `nsys recipe` (run on a
# machine with Nsight Systems and a python with pandas/pyarrow, e.g. the GPU
# machine). Whole process, exports cached (both tools read the exports made
# beside each report, made once before any timing), wall time from bash's
# clock around /usr/bin/time (microseconds: /usr/bin/time's own %e has 10 ms
# steps), peak RSS from /usr/bin/time (nsys: its largest process; nsysx: the
# process), every output compared with pqdiff.
#
# Usage:
#   bash scripts/bench-recipes.sh NSYS NSYSX 'PQDIFF COMMAND' INPUT...
# INPUT is a directory of .nsys-rep files (e.g. rank0/rank1 x4), or one
# .nsys-rep file: then COPIES (default 8) ranks of it are made in
# $WORK/copies-<stem>-<COPIES> (hard links of the report and of its exports,
# so the export is made once, not once per rank).
#
# Every recipe over 8 copies of a real capture, in one call of under
# 9 minutes (all 28 recipes, one run each, nsys stopped after 12 s):
#   RECIPES=all REPEAT=1 TIMEOUT=12 BUDGET=420 \
#     bash scripts/bench-recipes.sh nsys ./nsysx 'python3 scripts/pqdiff.py' real.nsys-rep
# The exports are made first (WARM_ONLY=1 makes them and stops: run that in
# an earlier call when exporting a large report takes minutes); a second run
# finds them beside the reports and starts timing at once.
#
# Settings (environment):
#   RECIPES   recipes to run, by name, or "all" for every recipe nsysx has
#             (`nsysx recipe --help-recipes`); default: the six below.
#   REPEAT    runs per command, the best wall time kept (default 3; a
#             command whose first run takes over 20 s runs once).
#   TIMEOUT   seconds after which an nsys run is stopped: its row says
#             "nsys did not finish in N s" and gives nsysx's figures
#             (default 600). XTIMEOUT is the same for nsysx (default 600).
#   BUDGET    seconds for the whole script: once past it, the recipes left
#             get a "not run: budget" row (default: no limit).
#   COPIES    ranks made of a single .nsys-rep INPUT (default 8).
#   WORK      scratch directory for outputs and copies (default /tmp/bench-recipes).
#   NVTX_NAME the NVTX range of nvtx_pace and nvtx_gpu_proj_pace (default forward);
#   KERN_NAME the kernel (short name) of cuda_gpu_kern_pace (default: the most
#             launched kernel of the first report).
#   WARM_ONLY=1 makes the exports and stops.
set -uo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
NSYS=$1 NSYSX=$2 PQDIFF=$3
shift 3
REPEAT=${REPEAT:-3}
TIMEOUT=${TIMEOUT:-600}
XTIMEOUT=${XTIMEOUT:-600}
BUDGET=${BUDGET:-0}
COPIES=${COPIES:-8}
WORK=${WORK:-/tmp/bench-recipes}
NVTX_NAME=${NVTX_NAME:-forward}
RECIPES=${RECIPES:-"cuda_gpu_kern_sum nvtx_gpu_proj_trace nccl_gpu_overlap_trace cuda_gpu_time_util_map gpu_time_util nvtx_pace"}
if [ "$RECIPES" = all ]; then
  RECIPES=$("$NSYSX" recipe --help-recipes 2>&1 | awk '/^  [a-z]/ { print $1 }' | tr '\n' ' ')
fi
mkdir -p "$WORK"
T0=$EPOCHREALTIME
elapsed() { awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }'; }

measure() { # label limit_s outdir cmd... -> "label wall_s peak_MB", or "label TIMEOUT"
  local label=$1 limit=$2 out=$3; shift 3
  local best="" bestkb=0 k rc
  for k in $(seq "$REPEAT"); do
    rm -rf "$out"
    local t0=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$WORK/time" timeout -k 5 "$limit" "$@" >"$WORK/out" 2>&1
    rc=$?
    local t1=$EPOCHREALTIME
    if [ $rc = 124 ] || [ $rc = 137 ]; then
      echo "$label TIMEOUT"
      return 0
    fi
    [ $rc = 0 ] || { echo "$label FAILED: $(tail -3 "$WORK/out" | tr '\n' ' ')"; return 1; }
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    kb=$(tail -1 "$WORK/time")
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall bestkb=$kb; fi
    awk -v a="$wall" 'BEGIN { exit !(a > 20) }' && break
  done
  printf "%s %s %d\n" "$label" "$best" $((bestkb / 1024))
}

copies() { # report.nsys-rep -> directory of COPIES hard-linked ranks (with the exports once made)
  local rep=$1 stem d k
  stem=$(basename "$rep" .nsys-rep)
  d=$WORK/copies-$stem-$COPIES
  mkdir -p "$d"
  ln -f "$rep" "$d/rank0.nsys-rep" 2>/dev/null || cp -f "$rep" "$d/rank0.nsys-rep" # another file system
  warm_one "$d/rank0.nsys-rep"
  for k in $(seq 1 $((COPIES - 1))); do
    ln -f "$d/rank0.nsys-rep" "$d/rank$k.nsys-rep"
    ln -f "$d/rank0.sqlite" "$d/rank$k.sqlite"
    if [ -d "$d/rank0_pqtdir" ] && [ ! -d "$d/rank${k}_pqtdir" ]; then cp -al "$d/rank0_pqtdir" "$d/rank${k}_pqtdir"; fi
  done
  echo "$d"
}

warm_one() { # the SQLite and Parquet exports of one report, unless made already
  local f=$1 b=${1%.nsys-rep}
  [ -f "$b.sqlite" ] || "$NSYS" export -t sqlite -f true -o "$b.sqlite" "$f" >/dev/null 2>&1
  if [ ! -d "${b}_pqtdir" ]; then # nsys recipe makes (and keeps) the Parquet export it reads
    local one=$WORK/warm-one
    rm -rf "$one" && mkdir -p "$one" && ln -f "$f" "$one/" && ln -f "$b.sqlite" "$one/"
    "$NSYS" recipe cuda_gpu_kern_sum --input "$one" --output "$WORK/warm-out" >/dev/null 2>&1
    rm -rf "$WORK/warm-out"
    local pq
    pq=$(ls -d "$one"/*_pqtdir 2>/dev/null | head -1)
    [ -n "$pq" ] && mv "$pq" "${b}_pqtdir"
    rm -rf "$one"
  fi
}

warm() { # every report's exports, then everything read once into the page cache
  local dir=$1 f
  for f in "$dir"/*.nsys-rep; do warm_one "$f" & done
  wait
  "$NSYS" recipe cuda_gpu_kern_sum --input "$dir" --output "$WORK/warm-out" >/dev/null 2>&1
  rm -rf "$WORK/warm-out"
  cat "$dir"/*.sqlite >/dev/null
}

args_for() { # recipe dir -> its extra arguments
  case $1 in
    nvtx_pace | nvtx_gpu_proj_pace) echo "--name $NVTX_NAME" ;;
    cuda_gpu_kern_pace) echo "--name ${KERN_NAME:-$(top_kernel "$2")}" ;;
  esac
}

top_kernel() { # the most launched kernel's short name in the first report of dir
  python3 - "$(ls "$1"/*.sqlite | head -1)" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("select s.value from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id = k.shortName group by 1 order by count(*) desc limit 1").fetchone()[0])
EOF
}

bench() { # dir recipe [extra args]
  local dir=$1 r=$2 n a b same
  shift 2
  n=$(ls "$dir"/*.nsys-rep | wc -l)
  if [ "$BUDGET" -gt 0 ] && [ "$(elapsed)" -ge "$BUDGET" ]; then
    echo "| $r | $n | not run: budget of $BUDGET s spent | | | |"
    return
  fi
  local inputs=(--input "$dir")
  if [ "$r" = diff ]; then # two runs of one summary recipe by nsys, the same inputs for both tools
    rm -rf "$WORK/diff1" "$WORK/diff2"
    timeout "$TIMEOUT" "$NSYS" recipe cuda_api_sum --input "$dir" --output "$WORK/diff1" >/dev/null 2>&1
    cp -r "$WORK/diff1" "$WORK/diff2"
    inputs=(--input "$WORK/diff1" "$WORK/diff2")
  fi
  a=$(measure "nsys" "$TIMEOUT" "$WORK/o-nsys" "$NSYS" recipe "$r" "${inputs[@]}" --output "$WORK/o-nsys" "$@") || { echo "| $r | $n | $a | | | |"; return; }
  b=$(measure "nsysx" "$XTIMEOUT" "$WORK/o-nsysx" "$NSYSX" recipe "$r" "${inputs[@]}" --output "$WORK/o-nsysx" "$@") || { echo "| $r | $n | | $b | | |"; return; }
  set -- $a $b
  if [ "$2" = TIMEOUT ]; then
    if [ "$4" = TIMEOUT ]; then
      echo "| $r | $n | nsys did not finish in $TIMEOUT s | nsysx did not finish in $XTIMEOUT s | | |"
    else
      awk -v r="$r" -v n="$n" -v lim="$TIMEOUT" -v t2="$4" -v m2="$5" \
        'BEGIN { printf "| %s | %d | nsys did not finish in %d s | %.3f / %d MB | > %.1fx | |\n", r, n, lim, t2, m2, lim/(t2>0?t2:0.0005) }'
    fi
    return
  fi
  if [ "$4" = TIMEOUT ]; then
    echo "| $r | $n | $2 s / $3 MB | nsysx did not finish in $XTIMEOUT s | | |"
    return
  fi
  same=identical
  if ! ls "$WORK"/o-nsys/*.parquet >/dev/null 2>&1 && ! ls "$WORK"/o-nsysx/*.parquet >/dev/null 2>&1; then
    same="both: no output (no data)"
  else
    $PQDIFF "$WORK/o-nsys" "$WORK/o-nsysx" >"$WORK/diff" 2>&1 || same="DIFFERENT: $(head -c 300 "$WORK/diff" | tr '\n|' '  ')"
  fi
  awk -v r="$r" -v n="$n" -v t1="$2" -v m1="$3" -v t2="$5" -v m2="$6" -v s="$same" \
    'BEGIN { printf "| %s | %d | %.3f / %d MB | %.3f / %d MB | %.1fx | %s |\n", r, n, t1, m1, t2, m2, t1/(t2>0?t2:0.0005), s }'
}

dirs=()
for arg in "$@"; do
  if [ -f "$arg" ]; then
    dirs+=("$(copies "$arg")")
  else
    dirs+=("$arg")
  fi
done
for dir in "${dirs[@]}"; do warm "$dir"; done
echo "exports ready at $(elapsed) s"
[ "${WARM_ONLY:-}" = 1 ] && exit 0
echo "| recipe | reports | nsys s / peak RSS | nsysx s / peak RSS | ratio | outputs |"
echo "|---|---|---|---|---|---|"
for dir in "${dirs[@]}"; do
  for r in $RECIPES; do
    # shellcheck disable=SC2046
    bench "$dir" "$r" $(args_for "$r" "$dir")
  done
done
echo "done at $(elapsed) s"
