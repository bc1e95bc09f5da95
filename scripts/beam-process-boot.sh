#!/bin/sh
# Boot wrapper for a stand-alone Prism job server's PROCESS environment
# (Beam 2.77.0): Prism starts the command as `CMD --id='ID' --provision_endpoint=...`
# with the quotes inside the value, so the Go SDK boot program asks for a
# worker id that does not exist and Prism then hangs. This strips the quotes
# and runs the boot program (BEAM_BOOT, default /opt/apache/beam/boot; build
# it with `go build -o boot github.com/apache/beam/sdks/v2/go/container`).
boot=${BEAM_BOOT:-/opt/apache/beam/boot}
for a in "$@"; do
  case "$a" in
    --id=\'*\') a="--id=$(printf '%s' "${a#--id=}" | sed "s/^'//; s/'\$//")" ;;
  esac
  set -- "$@" "$a"
  shift
done
exec "$boot" "$@"
