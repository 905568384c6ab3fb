#!/usr/bin/env bash
# The build as a packager uses it, in a copy of the tree: header changes
# rebuild their users and only them, CPPFLAGS/LDFLAGS (Debian's hardening
# flags) and CFLAGS reach the compiler, clang builds warning-free, and
# uninstall removes what install put.
. "$(dirname "$0")/lib.sh"
T="$TMPD/tree"
mkdir -p "$T/tests"
cp -r "$TOP/Makefile" "$TOP/include" "$TOP/src" "$TOP/themes" "$TOP/iodash.1" "$TOP/tools" "$TOP/completions" "$TOP/man" "$T/"
cp -r "$TOP/tests/unit" "$T/tests/"
cd "$T" || exit 1
# the objects make compiled, sorted ("  CC     src/x.c" lines)
compiled() { make "$@" 2>&1 | awk '$1 == "CC" {print $2}' | sort; }

# --- the install step ends before the first compile, whatever -j: a spy
# installer that takes 2 s, and a spy compiler that notes every compile
# started before the installer was done (a machine missing a header
# package failed there with `make -j2 run`)
cat >"$TMPD/deps-spy" <<SPY
#!/bin/sh
sleep 2; : >"$TMPD/deps-done"
SPY
cat >"$TMPD/cc-spy" <<SPY
#!/bin/sh
for a in "\$@"; do [ "\$a" = -c ] && [ ! -e "$TMPD/deps-done" ] && echo "\$*" >>"$TMPD/early"; done
exec cc "\$@"
SPY
chmod +x "$TMPD/deps-spy" "$TMPD/cc-spy"
for target in run bench; do
	rm -rf build iodash "$TMPD/deps-done" "$TMPD/early"
	args=(); [ $target = run ] && args=(ARGS=--version)
	# bench stops at bench/run.sh, absent from this copy: its build is what counts
	make -j2 $target DEPS_SH="$TMPD/deps-spy" CC="$TMPD/cc-spy" "${args[@]}" >"$TMPD/order-$target.log" 2>&1
	if [ -e "$TMPD/deps-done" ] && [ -x iodash ] && [ ! -s "$TMPD/early" ]; then
		pass "make -j2 $target: no compile starts before the install step ends"
	else
		fail "make -j2 $target: no compile starts before the install step ends" \
			"$(wc -l <"$TMPD/early" 2>/dev/null || echo 0) compiles started early; $(tail -n 2 "$TMPD/order-$target.log" | tr '\n' ' ')"
	fi
done
grep -q "^iodash " "$TMPD/order-run.log" && pass "make run starts iodash once built (ARGS=--version)" \
	|| fail "make run starts iodash once built" "$(tail -n 3 "$TMPD/order-run.log" | tr '\n' ' ')"
rm -rf build iodash

# --- hardening flags, gcc: no warning, and they are in the binary
if make -j2 V=1 CPPFLAGS=-D_FORTIFY_SOURCE=2 LDFLAGS=-Wl,-z,relro iodash >"$TMPD/fortify.log" 2>&1; then
	pass "make CPPFLAGS=-D_FORTIFY_SOURCE=2 LDFLAGS=-Wl,-z,relro builds"
else
	fail "hardened build" "$(grep -m3 -E 'error|warning' "$TMPD/fortify.log")"
fi
grep -q 'warning:' "$TMPD/fortify.log" && fail "hardened build: no warnings" "$(grep -m3 'warning:' "$TMPD/fortify.log")" \
	|| pass "hardened build: no warnings"
nm -D iodash 2>/dev/null | grep -q '__[a-z]*printf_chk' && pass "CPPFLAGS reach the compiler (fortified printf in the binary)" \
	|| fail "CPPFLAGS reach the compiler" "no __*printf_chk symbol in iodash"
grep -E -- '-o iodash ' "$TMPD/fortify.log" | grep -q -- '-Wl,-z,relro' && pass "LDFLAGS reach the link" \
	|| fail "LDFLAGS reach the link" "$(grep -E -- '-o iodash ' "$TMPD/fortify.log")"

# --- header dependencies: users of a private header, not everything
includers() { # HEADER FILE...: the files that include HEADER by name, or by path from src/
	grep -lE "#include \"($(basename "$(dirname "$1")")/)?$(basename "$1")\"" "${@:2}"
}
for h in src/parsers/pinternal.h src/record/rec_format.h; do
	# its users: those that include it, or include a private header that does
	# (tables_internal.h includes pinternal.h)
	want=$({ includers "$h" src/*.c src/*/*.c
		for g in $(includers "$h" src/*/*.h | grep -vxF "$h"); do includers "$g" src/*.c src/*/*.c; done; } | sort -u)
	touch "$h"
	got=$(compiled iodash)
	[ -n "$want" ] && [ "$got" = "$want" ] && pass "touching $h rebuilds its $(echo "$want" | wc -l) users" \
		|| fail "touching $h rebuilds its users" "want $(echo $want), got $(echo $got)"
done
all=$(ls src/*.c src/*/*.c | wc -l)
touch include/iodash/model/series.h
got=$(compiled iodash)
n=$(echo "$got" | grep -c .)
if echo "$got" | grep -qx src/model/series.c && [ "$n" -lt "$all" ]; then
	pass "touching include/iodash/model/series.h rebuilds $n of $all objects, series.c among them"
else
	fail "a public header rebuilds its users only" "$n of $all: $(echo $got)"
fi
[ -z "$(compiled iodash)" ] && pass "nothing to do when nothing changed" || fail "nothing to do when nothing changed"
# an object built before header lists existed (no .d beside it) is built
# again, or a checkout that pulls this Makefile keeps stale objects
rm -f build/src/ui/live.d
got=$(compiled iodash)
[ "$got" = src/ui/live.c ] && pass "an object without its header list is rebuilt" || fail "an object without its header list is rebuilt" "$(echo $got)"

# --- CFLAGS is the user's; the flags the build needs stay
line=$(make -n -B V=1 CFLAGS='-O1 -g0' build/src/model/model.o | grep -- '-c -o build/src/model/model.o')
if echo " $line " | grep -q -- ' -O1 -g0 ' && ! echo " $line " | grep -q -- ' -O2 ' &&
   echo " $line " | grep -q -- ' -std=gnu11 .*-Werror'; then
	pass "CFLAGS overrides -O2 -g and keeps -std and the warnings"
else
	fail "CFLAGS overridable" "$line"
fi

# --- install, then uninstall leaves nothing
R="$TMPD/root"
if make install DESTDIR="$R" PREFIX=/usr >"$TMPD/install.log" 2>&1 && [ -x "$R/usr/bin/iodash" ] &&
   [ -f "$R/usr/share/man/man1/iodash.1" ] && ls "$R"/usr/share/iodash/themes/*.theme >/dev/null 2>&1 &&
   [ -f "$R/usr/share/bash-completion/completions/iodash" ] && [ -f "$R/usr/share/man/man5/iodash-config.5" ] &&
   [ -f "$R/usr/share/man/man5/iodash-recording.5" ]; then
	pass "make install DESTDIR PREFIX=/usr"
else
	fail "make install" "$(tail -3 "$TMPD/install.log")"
fi
make uninstall DESTDIR="$R" PREFIX=/usr >"$TMPD/uninstall.log" 2>&1
left=$(find "$R" -type f; [ -d "$R/usr/share/iodash" ] && echo "$R/usr/share/iodash/")
[ -z "$left" ] && pass "make uninstall removes every file and share/iodash" || fail "make uninstall" "left: $(echo $left)"

# --- clang: the whole tree, unit tests included, warning-free (-Werror)
if command -v clang >/dev/null; then
	make clean >/dev/null
	if make -j2 CC=clang CPPFLAGS=-D_FORTIFY_SOURCE=2 iodash unit >"$TMPD/clang.log" 2>&1 &&
	   ! grep -q 'warning:' "$TMPD/clang.log"; then
		pass "make CC=clang builds iodash and the unit tests without a warning"
	else
		fail "make CC=clang" "$(grep -m3 -E 'error|warning' "$TMPD/clang.log")"
	fi
	# clang writes each .d a few ms after its .o: the next make must not
	# take every object for out of date
	again=$(compiled CC=clang CPPFLAGS=-D_FORTIFY_SOURCE=2 iodash unit)
	[ -z "$again" ] && pass "make CC=clang again builds nothing" \
		|| fail "make CC=clang again builds nothing" "rebuilt $(echo "$again" | wc -l): $(echo $again | cut -c1-200)"
else
	skip "make CC=clang" "clang is not installed (make deps)"
fi
exit 0
