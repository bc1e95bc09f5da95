#!/bin/bash
. "$(dirname "$0")/probe_env.sh"
for pr in bt cnn fixed rank0 rank1; do p "memsize_noconv_$pr" $T/nsys stats -q -f csv:noconv -o - -r cuda_gpu_mem_size_sum $D/$pr.sqlite; done
for f in csv column hdoc:css= hdoc:css=a:css=b hdoc:title=a:title=b csv:noconv; do p "edge_$f" $T/nsys stats -q -f $f -o - -r _sqlfile:file=$D/q_edge.sql $D/sync.sqlite; done
pack
