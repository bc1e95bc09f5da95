#!/bin/bash
# Captures every advise validation workload on a GPU machine:
#   capture.sh OUTDIR [WHATIF_OUTDIR]   (nsys on PATH, or T pointing at its directory)
# Each workload is profiled with CUDA, NVTX and OS runtime tracing and the
# default --cuda-graph-trace=graph, exported to SQLite and gzipped; graph.py is
# captured a second time with --cuda-graph-trace=node, and host_stall.py a
# second time without CUDA tracing (the "untraced" case). With WHATIF_OUTDIR,
# ../whatif/whatif.py is captured as critical-path's before/after pairs: one
# "before" and three "after"s, each changing one thing (GEMMs halved, host
# sleep removed, .item() removed).
set -u
D=$(cd "$(dirname "$0")" && pwd)
O=${1:?usage: capture.sh OUTDIR}
NSYS=${T:+$T/}nsys
W=$(mktemp -d)
cap() { # NAME SCRIPT TRACE GRAPHMODE [SCRIPT ARGS...]
  local t0=$SECONDS
  timeout 90 $NSYS profile -t "$3" --cuda-graph-trace="$4" -s none --cpuctxsw=none -o "$W/$1" \
    python3 "$D/$2" "${@:5}" >"$W/$1.log" 2>&1 || { echo "$1: profile failed"; tail -5 "$W/$1.log"; return; }
  $NSYS export -t sqlite -o "$W/$1.sqlite" "$W/$1.nsys-rep" >/dev/null 2>&1 || { echo "$1: export failed"; return; }
  python3 - "$W/$1.sqlite" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
names = {r[0] for r in c.execute("select name from sqlite_master where type='table'")}
for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API"):
    print(" ", t, c.execute(f"select count(*) from {t}").fetchone()[0] if t in names else "absent")
PY
  gzip -9 -c "$W/$1.sqlite" >"$O/$1.sqlite.gz"
  echo "$1: $((SECONDS - t0)) s, $(du -k "$W/$1.sqlite" | cut -f1) KiB sqlite, $(du -k "$O/$1.sqlite.gz" | cut -f1) KiB gz"
}
cap host_stall host_stall.py cuda,nvtx,osrt graph
cap launch_bound launch_bound.py cuda,nvtx,osrt graph
cap pageable_sync pageable_sync.py cuda,nvtx,osrt graph
cap graph graph.py cuda,nvtx,osrt graph
cap graph_node graph.py cuda,nvtx,osrt node
cap healthy healthy.py cuda,nvtx,osrt graph
cap host_stall_nocuda host_stall.py nvtx,osrt graph
if [ -n "${2:-}" ]; then
  O=$2
  cap before ../whatif/whatif.py cuda,nvtx,osrt graph
  cap half_gemm ../whatif/whatif.py cuda,nvtx,osrt graph --rows 4096
  cap no_sleep ../whatif/whatif.py cuda,nvtx,osrt graph --sleep 0
  cap no_item ../whatif/whatif.py cuda,nvtx,osrt graph --item 0
fi
rm -rf "$W"
