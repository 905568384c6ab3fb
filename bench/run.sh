#!/usr/bin/env bash
# `make bench`: every bench/*.sh part prints its own figures.  Noisy shared
# machines: compare ratios within one run; callgrind counts are repeatable.
set -u
cd "$(dirname "$0")/.."
echo "iodash bench, $(date -u +%FT%TZ), $(uname -r), $(nproc) cpus"
for part in bench/[0-9]*.sh; do
	[ -f "$part" ] || continue
	echo "== $(basename "$part" .sh)"
	bash "$part" || echo "($part failed: exit $?)"
done
