#!/bin/bash
. "$(dirname "$0")/probe_env.sh"
for f in column table column:nofmt column:2:2:2 column:autolines=3; do S "txt_$f" q_txt -f $f; done
pack
