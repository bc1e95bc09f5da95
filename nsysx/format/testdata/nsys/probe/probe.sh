#!/bin/bash
. "$(dirname "$0")/probe_env.sh"
n=0
locale -a > $OUT/locales.txt 2>&1
p help $T/nsys stats --help-formats
# units
for f in csv csv:time=us csv:time=ms csv:time=s csv:time=sec csv:time=seconds csv:time=usec csv:time=ns csv:time=min csv:time=US csv:noconv csv:nohdrunit csv:noconv:nohdrunit csv:time=us:dur=ms csv:dur=ms:time=us csv:ts=us csv:bytes=KB csv:bytes=KiB csv:bytes=MiB csv:bytes=GB csv:bytes=GiB csv:bytes=B csv:bytes=kB csv:bytes=b csv:mem=KiB:thru=GB csv:thru=KB csv:addr=uint csv:addr=hex csv:addr=dec csv:gid=gidhex csv:time=ns:noconv csv:time=us:noconv json:time=us column:time=us table:time=ms column:noconv; do
  S "units_$f" q_units -f $f
done
S units_tu_usec_durms q_units --timeunit usec -f csv:dur=ms
S units_tu_u q_units --timeunit u -f csv
S units_tu_msec_timeus q_units --timeunit msec -f csv:time=us
S units_tu_seconds q_units --timeunit seconds -f csv
S units_tu_nsec_tsus q_units --timeunit nsec -f csv:ts=us
for f in csv csv:gid=gidhex csv:gid=gidsubint csv:gid=gidsubhex csv:addr=uint column json; do S "gid_$f" q_gid -f $f; done
for f in column column:autolines=2 column:nofmt column:colmax=10 column:5:.:0 column:3:3:3:3:3 table:autolines=2 table:nohdr column:nohdr column:nolimit column:autolines=0 column:colmax=0 column:nofmt:autolines=3 table:nofmt csv tsv json; do S "col_$f" q_col -f $f; done
for f in column table csv tsv json htable hdoc column:nohdr table:nohdr tsv:nohdr; do S "zero_$f" q_zero -f $f; done
for f in csv tsv tsv:esc json htable hdoc column table column:nofmt; do S "json_$f" q_json -f $f; done
for f in column column:nofmt table column:time=us; do S "grp_$f" q_grp -f $f; LC_ALL=en_US.UTF-8 S "grpUS_$f" q_grp -f $f; LC_ALL=de_DE.UTF-8 S "grpDE_$f" q_grp -f $f; LC_ALL= LC_NUMERIC=en_US.UTF-8 LANG=C S "grpNUM_$f" q_grp -f $f; done
for f in column column:autolines=2 table:autolines=1 column:autolines=1:nofmt; do S "wide_$f" q_wide -f $f; done
for f in column column:10:5 column:nohdr table column:3 column:colmax=5; do S "hdr_$f" q_hdr -f $f; done
for f in CSV csv:foo csv:nofmt csv:esc csv:title=x json:nohdr column:esc hdoc:title=My\ \<T\>\&:css=http://x/y.css hdoc:css=style.css hdoc:title= htable:title=x column:autolines=x column:autolines=-1 column:colmax=-1 column:-1 column:abc tsv:nohdr:esc csv:nohdr:nohdr column:time column:time= cvs; do S "opt_$f" q_units -f $f; done
# rules
R=$D/train.sqlite
for f in column table csv json; do p "rule_gaps_$f" $T/nsys analyze -q -f $f -o - -r gpu_gaps $R; p "rule_gaps1_$f" $T/nsys analyze -q -f $f -o - -r gpu_gaps:gap=1 $R; p "rule_sync_$f" $T/nsys analyze -q -f $f -o - -r cuda_api_sync:rows=1 $R; p "rule_sync3_$f" $T/nsys analyze -q -f $f -o - -r cuda_api_sync:rows=3 $R; p "rule_sync0_$f" $T/nsys analyze -q -f $f -o - -r cuda_api_sync:rows=0 $R; done
p rule_sync3_colnohdr $T/nsys analyze -q -f column:nohdr -o - -r cuda_api_sync:rows=3 $R
for pr in sync train; do p "memsize_noconv_$pr" $T/nsys stats -q -f csv:noconv -o - -r cuda_gpu_mem_size_sum $D/$pr.sqlite; done
p helpall $T/nsys stats --help
ls $OUT | wc -l
