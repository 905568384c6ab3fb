#!/usr/bin/env bash
# Install the Debian packages iodash needs, if any is missing.  As root this
# runs apt-get; otherwise it prints the one line to run and fails.
#
# Usage: tools/deps.sh PACKAGE...
#        tools/deps.sh --install-debs FILE.deb...   (the same install path for
#        local .deb files: tests/e2e/test_deps.sh checks the shim with one)
set -u
debs=()
if [ "${1:-}" = "--install-debs" ]; then
	shift
	debs=("$@")
	missing=()
else
	missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	# a package an earlier try left unpacked but not configured counts as
	# missing only through dpkg --configure -a below; nothing else to do
	if [ ${#missing[@]} -eq 0 ] && ! dpkg --audit 2>/dev/null | grep -q .; then
		exit 0
	fi
fi
what="${missing[*]}${debs[*]}"
if [ "$(id -u)" -ne 0 ]; then
	[ -n "$what" ] || what="(packages left half-configured: see dpkg --audit)"
	echo "iodash: missing packages: $what" >&2
	echo "iodash: run: sudo apt-get update && sudo apt-get install -y $what" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null; then
	echo "iodash: missing packages $what and no apt-get: install them by hand" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/iodash-deps-log.XXXXXX) || exit 1
# Some packages (pcp) start their services from the post-install script with
# systemctl, which fails when PID 1 is not systemd (containers, chroots) and
# leaves the package half-configured.  There, a systemctl that only says what
# it skips must be found first by the maintainer scripts.  apt runs dpkg with
# a PATH of its own (apt's DPkg::Path), not ours, so the shim's folder goes
# into that setting, and into PATH for a dpkg we run ourselves.  It is
# removed afterwards; the tests start the daemons they need themselves.
shim=
cleanup() { rm -f "$log"; if [ -n "$shim" ]; then rm -rf "$shim"; fi; }
trap cleanup EXIT
apt_opts=(-y -q)
if [ ! -d /run/systemd/system ]; then
	shim=$(mktemp -d /tmp/iodash-deps.XXXXXX) || exit 1
	printf '%s\n' '#!/bin/sh' \
		"echo \"systemctl \$*\" >>'$shim/calls'" \
		'exit 0' >"$shim/systemctl"
	chmod 0755 "$shim/systemctl"
	dpkg_path=$(apt-config shell P DPkg::Path 2>/dev/null | sed -n "s/^P='\(.*\)'$/\1/p")
	[ -n "$dpkg_path" ] || dpkg_path=/usr/sbin:/usr/bin:/sbin:/bin
	apt_opts+=(-o "DPkg::Path=$shim:$dpkg_path")
	export PATH="$shim:$PATH"
fi

fail() { # $1 the step that failed
	echo "iodash: $1 failed (as root, on $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-this machine}")); its last lines:" >&2
	tail -n 15 "$log" | sed 's/^/    /' >&2
	bad=$(dpkg --audit 2>/dev/null | grep -E '^ [a-z0-9]' | awk '{print $1}' | tr '\n' ' ')
	[ -n "$bad" ] && echo "iodash: left half-configured: $bad(dpkg --audit)" >&2
	echo "iodash: run it by hand to see all of it: apt-get install $what" >&2
	exit 1
}

echo "iodash: installing $what" >&2
# a package an earlier try left half-configured is finished first, with the shim
dpkg --configure -a >>"$log" 2>&1 || fail "dpkg --configure -a"
if [ ${#debs[@]} -gt 0 ]; then
	apt-get install "${apt_opts[@]}" "${debs[@]}" >>"$log" 2>&1 || fail "apt-get install of ${debs[*]}"
elif [ ${#missing[@]} -gt 0 ]; then
	apt-get update -qq >>"$log" 2>&1 || fail "apt-get update"
	apt-get install "${apt_opts[@]}" "${missing[@]}" >>"$log" 2>&1 || fail "apt-get install"
fi
# an install that returned 0 and still left something unconfigured is a failure too
if dpkg --audit 2>/dev/null | grep -q .; then
	dpkg --configure -a >>"$log" 2>&1
	dpkg --audit >>"$log" 2>&1
	dpkg --audit 2>/dev/null | grep -q . && fail "configuring the packages"
fi
for p in "${missing[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		fail "installing $p (dpkg says: $(dpkg-query -W -f='${Status}' "$p" 2>&1))"
done
if [ -n "$shim" ] && [ -s "$shim/calls" ]; then
	echo "iodash: systemd is not PID 1 here: skipped the packages' $(wc -l <"$shim/calls") systemctl calls (first: $(head -n 1 "$shim/calls")); nothing was started, the tests start the daemons they need" >&2
fi
exit 0
