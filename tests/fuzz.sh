#!/usr/bin/env bash
# Run every libFuzzer target in build/fuzz for $1 seconds (default 10) on a
# copy of its seed corpus (fuzz/corpus/<target>/).  Prints PASS:/FAIL: lines.
set -u
cd "$(dirname "$0")/.."
secs=${1:-10}
rc=0
for bin in build/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	work=$(mktemp -d /tmp/iodash-fuzz.XXXXXX)
	[ -d "fuzz/corpus/$name" ] && cp -r "fuzz/corpus/$name/." "$work/"
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="build/fuzz/$name-" "$work" >"build/fuzz/$name.log" 2>&1; then
		echo "PASS: $name ($(grep -o 'stat::number_of_executed_units: [0-9]*' "build/fuzz/$name.log" || grep -oE '#[0-9]+' "build/fuzz/$name.log" | tail -1) runs in ${secs}s)"
	else
		echo "FAIL: $name (see build/fuzz/$name.log)"; tail -n 30 "build/fuzz/$name.log"; rc=1
	fi
	rm -rf "$work"
done
exit $rc
