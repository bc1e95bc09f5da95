#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.devlibs
T=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
D=$PWD/tmp/fprobe
cd $D
p() { local name=$1; shift; "$@" > $OUT/$name.out 2> $OUT/$name.err; echo "rc=$?" >> $OUT/$name.err; }
for pr in bt cnn fixed rank0 rank1; do p "memsize_noconv_$pr" $T/nsys stats -q -f csv:noconv -o - -r cuda_gpu_mem_size_sum $D/$pr.sqlite; done
for f in csv column hdoc:css= hdoc:css=a:css=b hdoc:title=a:title=b csv:noconv; do p "edge_$f" $T/nsys stats -q -f $f -o - -r _sqlfile:file=$D/q_edge.sql $D/sync.sqlite; done
cd $OUT && tar czf /tmp/all.tgz . && rm -rf $OUT/* && mv /tmp/all.tgz $OUT/
