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
# Some packages (pcp) start their services from the post-install script with
# systemctl, which fails when PID 1 is not systemd (containers, chroots) and
# leaves the package half-configured.  There, a systemctl that only says what
# it skips goes first in PATH for the install, and is removed afterwards; the
# tests start the daemons they need themselves.  A half-configured package
# from an earlier failed try is finished the same way (dpkg --configure -a).
shim=
cleanup() { if [ -n "$shim" ]; then rm -rf "$shim"; fi; }
trap cleanup EXIT
if [ ! -d /run/systemd/system ]; then
	shim=$(mktemp -d /tmp/iodash-deps.XXXXXX) || exit 1
	printf '%s\n' '#!/bin/sh' \
		'echo "iodash deps: systemd is not PID 1; skipped: systemctl $*" >&2' \
		'exit 0' >"$shim/systemctl"
	chmod 0755 "$shim/systemctl"
	export PATH="$shim:$PATH"
fi
{ dpkg --configure -a >/dev/null && apt-get update -qq >/dev/null &&
  apt-get install -y -qq "${missing[@]}" >/dev/null; } || {
	echo "iodash: apt-get install ${missing[*]} failed; run it by hand to see why" >&2
	exit 1
}
