# iodash: see README.md.  `make run` and `make check` set up a fresh Debian 12
# machine themselves (deps), then build; `make bench` prints figures.

PREFIX    ?= /usr/local
# `make V=1` shows the full compiler lines
Q         := $(if $(V),,@)
say        = $(if $(V),,@printf '  %-6s %s\n' $(1) $(2);)
CC        ?= cc
PKGS      := ncursesw libproc2 json-c libtracefs libtraceevent
VERSION   := 0.1.0

# Debian packages: the build, the tests, and the benchmarks the tests drive.
APT_BUILD := build-essential pkg-config libncurses-dev libproc2-dev libjson-c-dev libtracefs-dev libtraceevent-dev libpcp3-dev libpcp-mmv1-dev libpcp-import1-dev
APT_TEST  := libcmocka-dev tmux dbench fio sysstat clang libclang-rt-14-dev valgrind strace htop procps bc python3 locales pcp chromium
APT_ALL   := $(APT_BUILD) $(APT_TEST)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN      := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2
# gcc only: clang has no -Wformat-truncation and fails on the unknown option
CC_IS_CLANG := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep -c __clang__)
WARN      += $(if $(filter 0,$(CC_IS_CLANG)),-Wno-format-truncation)
# CFLAGS, CPPFLAGS and LDFLAGS are the user's (Debian's hardening flags):
# what the build needs is added around them, never replaced by them.
CFLAGS    ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -DIODASH_VERSION='"$(VERSION)"' \
             -DIODASH_DATADIR='"$(PREFIX)/share/iodash"' \
             -DIODASH_MANPAGE='"$(PREFIX)/share/man/man1/iodash.1"' -Iinclude -Isrc $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
# libpcp (--host) and libpcp_import (export --pcp) are loaded when first
# needed (src/base/pcplib.c), not linked; of libpcp-mmv1-dev only the header of
# the MMV file's layout is used (src/session/publish.c writes mmv.iodash.*)
LDLIBS    := $(PKG_LIBS) -ldl -lpthread -lm
# each object lists the headers it includes (build/**/*.d), so a header
# change rebuilds its users and only them.  The list is a prerequisite of
# its object (an object built without one is built again), so it is given
# the object's time: clang writes the .d a few ms after the .o, which made
# every object out of date at the next make
DEPFLAGS  := -MMD -MP

# Everything but main.c goes into a library that tests and fuzzers link.
LIB_SRC   := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c))
B         := build
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
TEST_SRC  := $(wildcard tests/unit/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

# The sanitizer build of the unit tests lives in its own tree.
AB        := build/asan
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_OBJ  := $(LIB_SRC:%.c=$(AB)/%.o)
ASAN_TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(AB)/tests/%)

# The ThreadSanitizer build: the unit tests and an iodash that the
# end-to-end tests of the threaded paths (live, view, run) drive.
TB        := build/tsan
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_OBJ  := $(LIB_SRC:%.c=$(TB)/%.o)
TSAN_TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(TB)/tests/%)

FUZZ_SRC  := $(wildcard fuzz/fuzz_*.c)
FB        := build/fuzz
FUZZ_BIN  := $(FUZZ_SRC:fuzz/%.c=$(FB)/%)
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
# the ui minus its curses files: the theme parser and the layout are pure
FUZZ_LIB_SRC := $(filter-out src/ui/%,$(LIB_SRC)) src/ui/theme.c src/ui/layout.c
FUZZ_OBJ  := $(FUZZ_LIB_SRC:%.c=$(FB)/%.o)

.PHONY: all deps deps-build run check test unit asan tsan fuzz-build e2e fuzz fuzz-smoke bench install uninstall clean

all: iodash

# Install what is missing with apt-get when root; otherwise say the one line to run.
# (DEPS_SH: the installer, replaced only by tests/e2e/test_build.sh's spy)
DEPS_SH   ?= tools/deps.sh
deps:
	@$(DEPS_SH) $(APT_ALL)

# What building and running need, not the test tools (a compiler for
# fuzzing, a browser, valgrind ...): for `make run` on a test box.
# pcp's daemons come with `make check` only (the PCP tests start a private
# pmcd themselves); nothing here starts a service.
deps-build:
	@$(DEPS_SH) $(APT_BUILD)

iodash: $(B)/src/main.o $(LIB_OBJ)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libiodash.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(B)/%.o: %.c $(B)/%.d
	@mkdir -p $(dir $@)
	$(call say,CC,$<) $(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $< && touch -r $@ $(@:.o=.d)

$(B)/tests/%: tests/unit/%.c $(B)/libiodash.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(B)/libiodash.a $(CMOCKA_LIBS) $(LDLIBS)

$(AB)/%.o: %.c $(AB)/%.d
	@mkdir -p $(dir $@)
	$(call say,CC-ASAN,$<) $(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $< && touch -r $@ $(@:.o=.d)

$(AB)/libiodash.a: $(ASAN_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(AB)/tests/%: tests/unit/%.c $(AB)/libiodash.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(AB)/libiodash.a $(CMOCKA_LIBS) $(LDLIBS)

$(TB)/%.o: %.c $(TB)/%.d
	@mkdir -p $(dir $@)
	$(call say,CC-TSAN,$<) $(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $(DEPFLAGS) -c -o $@ $< && touch -r $@ $(@:.o=.d)

$(TB)/libiodash.a: $(TSAN_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(TB)/tests/%: tests/unit/%.c $(TB)/libiodash.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(TB)/libiodash.a $(CMOCKA_LIBS) $(LDLIBS)

$(TB)/iodash: $(TB)/src/main.o $(TSAN_OBJ)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(FB)/%.o: %.c $(FB)/%.d
	@mkdir -p $(dir $@)
	$(call say,CC-FUZZ,$<) clang $(filter-out -Wformat=2 -Wno-format-truncation,$(ALL_CFLAGS)) -O1 -g -fsanitize=fuzzer-no-link,address,undefined $(DEPFLAGS) -c -o $@ $< && touch -r $@ $(@:.o=.d)

$(FB)/libiodash.a: $(FUZZ_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(FB)/fuzz_%: fuzz/fuzz_%.c $(wildcard fuzz/*.h) $(FB)/libiodash.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) clang $(filter-out -Wformat=2 -Wno-format-truncation,$(ALL_CFLAGS)) $(FUZZ_FLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(FB)/libiodash.a $(LDLIBS)

# Small measuring programs for `make bench` (bench/*.c).
BENCH_BIN := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
$(B)/bench/%: bench/%.c $(B)/libiodash.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(B)/libiodash.a $(LDLIBS)

unit: $(TEST_BIN)
asan: $(ASAN_TEST_BIN)
tsan: $(TSAN_TEST_BIN) $(TB)/iodash
fuzz-build: $(FUZZ_BIN)

# The targets that install first build in a make of their own, started
# when the install has finished: whatever -j (MAKEFLAGS=-j in a user's
# environment), no compile starts before apt has put the headers there, and
# pkg-config's flags are read again once the packages are in.
run: deps-build
	$(MAKE) iodash
	./iodash $(ARGS)

# All tests: unit (plain, ASan+UBSan and TSan), end-to-end through tmux and
# the real benchmarks (the threaded ones also under TSan), and a short fuzz
# of every reader of outside input.
check: deps
	$(MAKE) all unit asan tsan fuzz-build
	tests/run-all.sh

test: check

# Longer fuzzing: FUZZ_SECONDS per target (default 300).
fuzz: deps
	$(MAKE) fuzz-build
	tests/fuzz.sh $${FUZZ_SECONDS:-300}

bench: deps
	$(MAKE) all $(BENCH_BIN)
	bench/run.sh

install: iodash
	install -D -m 0755 iodash $(DESTDIR)$(PREFIX)/bin/iodash
	install -D -m 0644 iodash.1 $(DESTDIR)$(PREFIX)/share/man/man1/iodash.1
	install -d $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 0644 man/iodash-config.5 man/iodash-recording.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -d $(DESTDIR)$(PREFIX)/share/iodash/themes
	install -m 0644 themes/*.theme $(DESTDIR)$(PREFIX)/share/iodash/themes/
	install -D -m 0644 completions/iodash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/iodash

# What install put there, and its directories if that leaves them empty.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iodash $(DESTDIR)$(PREFIX)/share/man/man1/iodash.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/iodash
	rm -f $(DESTDIR)$(PREFIX)/share/man/man5/iodash-config.5 $(DESTDIR)$(PREFIX)/share/man/man5/iodash-recording.5
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/iodash/themes/,$(notdir $(wildcard themes/*.theme)))
	-rmdir $(DESTDIR)$(PREFIX)/share/iodash/themes $(DESTDIR)$(PREFIX)/share/iodash 2>/dev/null

clean:
	rm -rf build iodash

# the header lists of the objects built so far (none on a clean tree); an
# object without its list (built before the lists existed) is built again
ALL_DEP := $(patsubst %.o,%.d,$(B)/src/main.o $(LIB_OBJ) $(ASAN_OBJ) $(TSAN_OBJ) $(TB)/src/main.o $(FUZZ_OBJ))
$(ALL_DEP): ;
-include $(shell find build -name '*.d' 2>/dev/null)
