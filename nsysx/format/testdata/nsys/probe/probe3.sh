#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.devlibs
T=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
D=$PWD/tmp/fprobe
P=$D/sync.sqlite
cd $D
p() { local name=$1; shift; "$@" > $OUT/$name.out 2> $OUT/$name.err; echo "rc=$?" >> $OUT/$name.err; }
S() { local name=$1; local q=$2; shift 2; p $name $T/nsys stats -q "$@" -o - -r _sqlfile:file=$D/$q.sql $P; }
for f in column table column:nofmt column:2:2:2 column:autolines=3; do S "txt_$f" q_txt -f $f; done
cd $OUT && tar czf /tmp/all.tgz . && rm -rf $OUT/* && mv /tmp/all.tgz $OUT/
