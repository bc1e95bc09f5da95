#!/bin/bash
# Sourced by probe*.sh: the nsys under test, the profile directory and the
# two helpers that run one command (p) or one _sqlfile query (S) into $OUT.
export LD_LIBRARY_PATH=$PWD/.devlibs
T=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64
D=$PWD/tmp/fprobe
P=$D/sync.sqlite
p() { local name=$1; shift; "$@" > $OUT/$name.out 2> $OUT/$name.err; echo "rc=$?" >> $OUT/$name.err; }
S() { local name=$1; local q=$2; shift 2; p $name $T/nsys stats -q "$@" -o - -r _sqlfile:file=$D/$q.sql $P; }
# pack bundles everything under $OUT into one archive (fewer files to fetch back).
pack() { cd $OUT && tar czf /tmp/all.tgz . && rm -rf $OUT/* && mv /tmp/all.tgz $OUT/; }
cd $D
