#!/usr/bin/env bash
# tools/deps.sh on a machine without systemd as PID 1: a package whose
# post-install script calls systemctl (as pcp's does) must end "install ok
# installed".  apt runs dpkg with a PATH of its own (DPkg::Path), so the
# systemctl shim must reach dpkg's maintainer scripts through it: this test
# builds a tiny local .deb whose postinst calls systemctl and installs it
# through deps.sh's own install path (--install-debs), then removes it.
. "$(dirname "$0")/lib.sh"

DEPS="$TOP/tools/deps.sh"
PKG=iodash-deps-probe
BAD=iodash-deps-probe-fails
if ! is_root; then skip "deps: local .deb through deps.sh" "needs root (dpkg)"; exit 0; fi
for c in dpkg-deb dpkg apt-get; do
	command -v $c >/dev/null || { skip "deps: local .deb through deps.sh" "no $c here"; exit 0; }
done
if [ -d /run/systemd/system ]; then
	skip "deps: local .deb through deps.sh" "systemd is PID 1 here: deps.sh uses the real systemctl, no shim to test"
	exit 0
fi

purge() { dpkg --purge "$1" >/dev/null 2>&1; }
cleanup_add "purge $PKG; purge $BAD"
purge $PKG; purge $BAD

# mkdeb NAME POSTINST-BODY: a package of one file and a postinst
mkdeb() {
	local d="$TMPD/$1"
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$1"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: iodash tests <tests@iodash.invalid>\nDescription: iodash test package (tests/e2e/test_deps.sh)\n' "$1" >"$d/DEBIAN/control"
	printf '#!/bin/sh\nset -e\nif [ "$1" = configure ]; then\n%s\nfi\nexit 0\n' "$2" >"$d/DEBIAN/postinst"
	chmod 0755 "$d/DEBIAN/postinst"
	echo "test package" >"$d/usr/share/doc/$1/README"
	dpkg-deb --root-owner-group -b "$d" "$TMPD/$1.deb" >/dev/null
}
status() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null; }

# 1. the postinst starts a service as pcp's does; without the shim reaching
#    dpkg, systemctl fails (no systemd) or is missing, and the package is
#    left half-configured
mkdeb $PKG "systemctl --no-ask-password try-restart $PKG.service"
"$DEPS" --install-debs "$TMPD/$PKG.deb" >"$TMPD/deps.out" 2>&1; rc=$?
st=$(status $PKG)
if [ $rc -eq 0 ] && [ "$st" = "install ok installed" ]; then
	pass "deps: a postinst that calls systemctl installs without systemd (install ok installed, exit 0)"
else
	fail "deps: a postinst that calls systemctl installs without systemd" "exit $rc, dpkg status '$st': $(tr '\n' ' ' <"$TMPD/deps.out" | cut -c1-300)"
fi
grep -q "skipped the packages' .*systemctl calls (first: systemctl --no-ask-password try-restart $PKG.service)" "$TMPD/deps.out" &&
	pass "deps: the shim answered the postinst's systemctl" ||
	fail "deps: the shim answered the postinst's systemctl" "no 'skipped: systemctl' line in deps.sh's output"
[ -z "$(ls -d /tmp/iodash-deps.* 2>/dev/null)" ] &&
	pass "deps: the shim's folder is removed afterwards" ||
	fail "deps: the shim's folder is removed afterwards" "$(ls -d /tmp/iodash-deps.*)"
purge $PKG
[ -z "$(status $PKG)" ] || [ "$(status $PKG)" = "unknown ok not-installed" ] &&
	pass "deps: the test package is removed" || fail "deps: the test package is removed" "$(status $PKG)"

# 2. a postinst that really fails: deps.sh exits 1 and says what failed and
#    what was left half-configured, in a few lines
mkdeb $BAD "echo 'iodash test: this postinst fails on purpose' >&2; exit 1"
"$DEPS" --install-debs "$TMPD/$BAD.deb" >"$TMPD/bad.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "failed" "$TMPD/bad.out" && grep -q "fails on purpose" "$TMPD/bad.out" &&
   grep -q "half-configured: .*$BAD" "$TMPD/bad.out"; then
	pass "deps: a failing install exits 1 and names the step, the package's own words and what is half-configured"
else
	fail "deps: a failing install exits 1 and says why" "exit $rc: $(tr '\n' ' ' <"$TMPD/bad.out" | cut -c1-400)"
fi
purge $BAD

# 3. a package an earlier try left half-configured is finished by the next
#    run: unpack one by hand, without configuring it
mkdeb $PKG "systemctl --no-ask-password try-restart $PKG.service"
dpkg --unpack "$TMPD/$PKG.deb" >/dev/null 2>&1
st0=$(status $PKG)
"$DEPS" dpkg >"$TMPD/again.out" 2>&1; rc=$?
st=$(status $PKG)
if [ "$st0" != "install ok installed" ] && [ $rc -eq 0 ] && [ "$st" = "install ok installed" ]; then
	pass "deps: a package left unconfigured by an earlier try is finished ($st0 -> $st)"
else
	fail "deps: a package left unconfigured by an earlier try is finished" "before '$st0', after '$st', exit $rc: $(tr '\n' ' ' <"$TMPD/again.out" | cut -c1-300)"
fi
purge $PKG
