#!/bin/bash
. "$(dirname "$0")/probe_env.sh"
env | grep -E '^(LANG|LC_)' > $OUT/env.txt
for f in column table csv tsv json hdoc htable; do p "help_$f" $T/nsys stats --help-formats $f; done
for f in csv csv:time=us:bytes=KB csv:time=ms csv:time=ns:bytes=B csv:noconv:time=us csv:time=us:noconv csv:bytes=MB:time=sec column column:nofmt column:time=us:bytes=KiB; do S "conv_$f" q_conv -f $f; done
LC_ALL=C S "conv_C_column" q_conv -f column
for f in csv csv:noconv csv:nohdrunit csv:noconv:nohdrunit column; do S "tags_$f" q_tags -f $f; done
for f in table:0:5 column:.:0:3 table:nohdr:3 column:nohdr:0 table:2:2:2; do S "hdr_$f" q_hdr -f $f; done
p analyze_help $T/nsys analyze --help
pack
