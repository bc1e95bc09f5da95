#!/usr/bin/env bash
# Side-by-side benchmark of every `nsysx stats` report and `nsysx analyze` rule
# against `nsys stats` / `nsys analyze` on the same tiled profile
# (`make bench-nsys NSYS=/path/to/nsys`).
#
#   scripts/bench-nsys.sh NSYS [NSYSX]
#
# It tiles testdata/profiles/train.sqlite.gz TILES times (tools/nsys-tile.py),
# reads the result into the page cache, then for each report and rule runs
# both tools with the same arguments (`-r NAME -f csv -o DIR/out FILE`, DIR
# new and empty for each run): first pinned to two cores (taskset), then on
# all cores. Whole process: wall time from bash's clock around /usr/bin/time
# (microseconds; /usr/bin/time's own %e has 10 ms steps), peak RSS from
# /usr/bin/time; best of
# REPS runs (a tool whose first run takes more than SLOW seconds runs once);
# peak RSS is the largest of the runs. The CSV files both tools write are
# compared byte for byte. Prints a Markdown table; the raw lines go to
# $WORK/results.txt.
#
# Environment (defaults): TILES=50, SRC=testdata/profiles/train.sqlite.gz,
# WORK=/tmp/nsysx-bench, REPS=3, SLOW=5, JOBS=1 (reports measured at once in
# the two-core pass, each on its own pair of cores: 0,1 then 2,3 ...; both
# tools of one report on the same pair, one after the other; FIRST lists
# the names to start first),
# ALLCORES=1 (0: skip the all-cores pass), NSYS_ALL_MAX=1000 (in the all-cores
# pass, nsys is not rerun for a report it took longer than this on two
# cores), ONLY="name ..." (only these reports and rules), TIMEOUT=600 (per run),
# DISTINCT=1 (give the tiled file a PyTorch capture's NVTX name cardinality with
# tools/nsys-distinct-names.py: a local stand-in for a real capture, e.g.
# TILES=30 DISTINCT=1; SRC=real.sqlite TILES=1 measures a real capture itself).
set -uo pipefail
cd "$(dirname "$0")/.."
NSYS=${1:?usage: scripts/bench-nsys.sh NSYS [NSYSX]}
NSYSX=${2:-./bin/nsysx}
TILES=${TILES:-50} SRC=${SRC:-testdata/profiles/train.sqlite.gz} WORK=${WORK:-/tmp/nsysx-bench}
REPS=${REPS:-3} SLOW=${SLOW:-5} JOBS=${JOBS:-1} ALLCORES=${ALLCORES:-1}
NSYS_ALL_MAX=${NSYS_ALL_MAX:-1000} TIMEOUT=${TIMEOUT:-600}
FIRST=${FIRST:-"nvtx_pushpop_trace nvtx_gpu_proj_trace nvtx_gpu_proj_sum nvtx_kern_sum nvtx_startend_sum nvtx_pushpop_sum nvtx_sum cuda_gpu_trace gpu_time_util cuda_api_trace cuda_kern_exec_trace cuda_gpu_kern_gb_sum cuda_api_gpu_sum"}
TIMER=(/usr/bin/time -f "%M" -o)
if ! [ -x /usr/bin/time ]; then # peak RSS of the child from python's wait4 instead
  TIMER=(python3 -c 'import os,sys; p=os.fork()
if p==0: os.execvp(sys.argv[2],sys.argv[2:])
_,st,ru=os.wait4(p,0); open(sys.argv[1],"w").write("%d\n"%ru.ru_maxrss); sys.exit(os.waitstatus_to_exitcode(st))')
fi
((JOBS * 2 > $(nproc))) && JOBS=$(($(nproc) / 2))
((JOBS < 1)) && JOBS=1
[ -x "$NSYSX" ] || go build -o "$NSYSX" ./cmd/nsysx || exit 1
NSYSX=$(cd "$(dirname "$NSYSX")" && pwd)/$(basename "$NSYSX")
mkdir -p "$WORK"
DISTINCT=${DISTINCT:-0}
FILE=$WORK/train${TILES}.sqlite
[ "$DISTINCT" = 1 ] && FILE=$WORK/train${TILES}-distinct.sqlite

tile() {
  [ -s "$FILE" ] && return
  local src=$WORK/source.sqlite
  case $SRC in *.gz) gunzip -c "$SRC" >"$src" ;; *) cp "$SRC" "$src" ;; esac
  python3 tools/nsys-tile.py "$src" "$FILE.tmp" "$TILES" || exit 1
  if [ "$DISTINCT" = 1 ]; then python3 tools/nsys-distinct-names.py "$FILE.tmp" || exit 1; fi
  mv "$FILE.tmp" "$FILE"
}

# names prints the reports then the rules, as "stats NAME" / "analyze NAME".
names() {
  "$NSYSX" stats --help-reports | awk '/^  [a-z]/ { print "stats", $1 }'
  "$NSYSX" analyze --help-rules | awk '/^  [a-z]/ { print "analyze", $1 }'
}

# measure TAG DIR CMD... runs CMD (output into DIR) REPS times, or once when
# the first run is slower than SLOW; prints "best_s peak_kB" (FAIL on error).
measure() {
  local tag=$1 dir=$2 best="" peak=0 i s kb t0 t1
  shift 2
  for ((i = 0; i < REPS; i++)); do
    rm -rf "$dir" && mkdir -p "$dir"
    t0=$EPOCHREALTIME
    if ! "${TIMER[@]}" "$dir.time" timeout "$TIMEOUT" "$@" >"$dir.log" 2>&1; then
      echo "FAIL 0"; return
    fi
    t1=$EPOCHREALTIME
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    read -r kb <"$dir.time"
    [ "$kb" -gt "$peak" ] && peak=$kb
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    awk -v a="$s" -v b="$SLOW" 'BEGIN { exit !(a > b) }' && break
  done
  echo "$best $peak"
}

# same DIR1 DIR2: whether both tools wrote the same CSV files.
same() {
  local a=$1 b=$2 f
  if [ -z "$(ls "$a")" ] && [ -z "$(ls "$b")" ]; then echo "no data in both"; return; fi
  [ "$(ls "$a")" = "$(ls "$b")" ] || { echo "DIFFERENT files: $(ls "$a" | tr '\n' ' ')/ $(ls "$b" | tr '\n' ' ')"; return; }
  for f in $(ls "$a"); do
    cmp -s "$a/$f" "$b/$f" || { echo "DIFFERENT: $f"; return; }
  done
  echo identical
}

# one PASS CORES CMD NAME [NSYS_SECONDS]: both tools on one report or rule;
# appends "PASS CMD NAME nsys_s nsys_kB nsysx_s nsysx_kB outputs" to results.
one() {
  local pass=$1 cores=$2 cmd=$3 name=$4 prev=${5:-0} pin=() d=$WORK/$1-$4 a b
  [ "$cores" != all ] && pin=(taskset -c "$cores")
  local args=("$cmd" -r "$name" -f csv)
  rm -rf "$d/warm" && mkdir -p "$d/warm"
  "${pin[@]}" "$NSYSX" "${args[@]}" -o "$d/warm/out" "$FILE" >/dev/null 2>&1 # first run: page cache
  b=$(measure nsysx "$d/nsysx" "${pin[@]}" "$NSYSX" "${args[@]}" -o "$d/nsysx/out" "$FILE")
  if awk -v a="$prev" -v b="$NSYS_ALL_MAX" 'BEGIN { exit !(a > b) }'; then
    a="- -"
  else
    a=$(measure nsys "$d/nsys" "${pin[@]}" "$NSYS" "${args[@]}" -o "$d/nsys/out" "$FILE")
  fi
  local s="-"
  if grep -qs "could not be found" "$d/nsys.log"; then # a report of nsysx's own
    a="- -" s="nsysx only: nsys has no such report"
  fi
  case "$a $b" in
  "- -"*) ;; # not run (or not in nsys)
  FAIL*) s="nsys fails: $(tail -1 "$d/nsys.log")" ;;
  *FAIL*) s="nsysx fails: $(tail -1 "$d/nsysx.log")" ;;
  *) s=$(same "$d/nsys" "$d/nsysx") ;;
  esac
  echo "$pass $cmd $name $a $b $s" >>"$WORK/results.txt"
}

# take prints the number of the next name to measure (a queue shared by the workers).
take() {
  until mkdir "$WORK/lock" 2>/dev/null; do sleep 0.01; done
  local k
  k=$(<"$WORK/next")
  echo $((k + 1)) >"$WORK/next"
  rmdir "$WORK/lock"
  echo "$k"
}

# worker I: the two-core pass, on cores 2I,2I+1, over the names it takes from the queue.
worker() {
  local i=$1 k line
  while k=$(take) && line=$(sed -n "$((k + 1))p" "$WORK/names.txt") && [ -n "$line" ]; do
    one pinned "$((2 * i)),$((2 * i + 1))" $line
  done
}

table() {
  awk '
    function cell(s, kb) { return s == "-" ? "-" : (s == "FAIL" ? "fails" : sprintf(s < 1 ? "%.3f s / %d MB" : "%.2f s / %d MB", s, kb / 1024)) }
    function ratio(a, b) { return (a == "-" || a == "FAIL" || b == "FAIL") ? "-" : sprintf("%.1fx", a / (b > 0 ? b : 0.005)) }
    function goal(a, ak, b, bk) { # 10x faster (within 15 ms where nsys takes under 150 ms) with a lower peak RSS
      if (a == "-" || a == "FAIL" || b == "FAIL") return "-"
      return ((a / (b > 0 ? b : 0.005) >= 10 || (a < 0.15 && b <= 0.015)) && bk < ak) ? "yes" : "no"
    }
    { k = $2 " " $3; if (!(k in seen)) { seen[k] = 1; order[n++] = k }
      v[$1, k] = $4 " " $5 " " $6 " " $7; out[$1, k] = $8; for (i = 9; i <= NF; i++) out[$1, k] = out[$1, k] " " $i }
    END {
      print "| command | nsys 2 cores | nsysx 2 cores | ratio | goal | nsys all cores | nsysx all cores | ratio | outputs |"
      print "|---|---|---|---|---|---|---|---|---|"
      for (i = 0; i < n; i++) {
        k = order[i]; split(v["pinned", k], p); all = (("all", k) in v); if (all) split(v["all", k], q)
        o = out["pinned", k]; if (all && out["all", k] != "-" && out["all", k] != o) o = o "; all cores: " out["all", k]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k, cell(p[1], p[2]), cell(p[3], p[4]), ratio(p[1], p[3]),
          goal(p[1], p[2], p[3], p[4]), all ? cell(q[1], q[2]) : "-", all ? cell(q[3], q[4]) : "-",
          all ? ratio(q[1], q[3]) : "-", o
      }
    }' <(sort -s -k2,2r -k3,3 "$WORK/results.txt") # reports, then rules, by name
}

tile
cat "$FILE" >/dev/null
# the slowest first, so that parallel workers finish together
names | awk -v first="$FIRST" -v only="${ONLY:-}" '
  BEGIN { n = split(first, f, " "); for (i = 1; i <= n; i++) rank[f[i]] = i
          m = split(only, o, " "); for (i = 1; i <= m; i++) keep[o[i]] = 1 }
  m == 0 || ($2 in keep) { print (($2 in rank) ? rank[$2] : 1000 + NR), $0 }' | sort -n | cut -d" " -f2- >"$WORK/names.txt"
: >"$WORK/results.txt"
echo "$(date -u +%F) $(nproc) cores; $FILE: $(du -m "$FILE" | cut -f1) MB; $("$NSYS" --version 2>/dev/null | head -1); $("$NSYSX" --version)" >&2
echo 0 >"$WORK/next"
for ((w = 0; w < JOBS; w++)); do worker "$w" & done
wait
if [ "$ALLCORES" = 1 ]; then
  while read -r cmd name; do
    prev=$(awk -v c="$cmd" -v n="$name" '$1 == "pinned" && $2 == c && $3 == n { print $4 }' "$WORK/results.txt")
    one all all "$cmd" "$name" "${prev:-0}"
  done <"$WORK/names.txt"
fi
table
