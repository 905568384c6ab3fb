#!/usr/bin/env bash
# Install the Debian packages iodash needs, if any is missing.  As root this
# runs apt-get; otherwise it prints the one line to run and fails.
set -u
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "iodash: missing packages: ${missing[*]}" >&2
	echo "iodash: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null; then
	echo "iodash: missing packages ${missing[*]} and no apt-get: install them by hand" >&2
	exit 1
fi
echo "iodash: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null || {
	echo "iodash: apt-get install ${missing[*]} failed; run it by hand to see why" >&2
	exit 1
}
