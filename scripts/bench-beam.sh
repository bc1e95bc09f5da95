#!/usr/bin/env bash
# Issue 16, item 5: N copies of rank0/rank1 (alternating) through the same
# recipe three ways: nsysx's in-process pool (nsysx recipe), Beam on Prism
# in-process (nsysx-beam recipe), and `nsys recipe` when nsys is on PATH.
# Prints one line per run: wall seconds, peak RSS (MB), what ran. Reports:
# .sqlite exports for nsysx (testdata/profiles), .nsys-rep for nsys
# (NSYS_REPS, default ../shared/testdata/profiles). Needs GNU /usr/bin/time.
#   N=256 RECIPES="cuda_gpu_kern_sum nvtx_sum" bash scripts/bench-beam.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-256}
RECIPES=${RECIPES:-"cuda_gpu_kern_sum nvtx_sum nvtx_gpu_proj_sum"}
REPS=${NSYS_REPS:-../shared/testdata/profiles}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
go build -o "$w/nsysx" ./cmd/nsysx
(cd beam && go build -o "$w/nsysx-beam" ./cmd/nsysx-beam)
mkdir "$w/sq" "$w/rep"
for r in rank0 rank1; do
  gunzip -c "testdata/profiles/$r.sqlite.gz" > "$w/$r.sqlite"
  [ -f "$REPS/$r.nsys-rep" ] && cp "$REPS/$r.nsys-rep" "$w/$r.nsys-rep"
done
for i in $(seq 0 $((N - 1))); do
  n=$(printf 'rank%04d' "$i")
  ln -s "../rank$((i % 2)).sqlite" "$w/sq/$n.sqlite"
  [ -f "$w/rank0.nsys-rep" ] && ln -s "../rank$((i % 2)).nsys-rep" "$w/rep/$n.nsys-rep"
done
cat "$w"/*.sqlite > /dev/null # page cache
run() { # label, command...
  local label=$1; shift
  rm -rf "$w/out"
  /usr/bin/time -f "%e %M" -o "$w/t" "$@" > "$w/log" 2>&1 || { echo "FAILED: $label"; tail -3 "$w/log"; return; }
  read -r s kb < "$w/t"
  printf "%8.2f s %7d MB  %s (%d reports)\n" "$s" $((kb / 1024)) "$label" "$N"
}
for r in $RECIPES; do
  a=(--input "$w/sq" --output "$w/out")
  [[ $r == *pace ]] && a+=(--name forward)
  run "pool  $r" "$w/nsysx" recipe "$r" "${a[@]}"
  run "prism $r" "$w/nsysx-beam" recipe "$r" "${a[@]}"
  if command -v nsys > /dev/null && [ -f "$w/rank0.nsys-rep" ]; then
    run "nsys  $r" nsys recipe "$r" --input "$w/rep" --output "$w/out"
  fi
done
