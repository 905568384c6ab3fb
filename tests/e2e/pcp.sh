# A private Performance Co-Pilot collector (pmcd) for the tests: source it
# after lib.sh.  pmcd_start PORT runs the Debian package's pmcd in the
# foreground on 127.0.0.1:PORT with its own config, namespace, socket, run,
# log and tmp directories under $TMPD/pmcd-PORT, and stops it when the test
# exits; no system-wide pmcd, file or port is touched.  PMCD_ADDR=0.0.0.0
# makes it answer on every 127.x address too (make bench's fleet of 1,024
# hosts; its access list still lets only this machine fetch).  Only the agents the
# tests need are loaded (pmcd, linux, mmv), as DSOs inside the pmcd.
PMCD_BIN=/usr/lib/pcp/bin/pmcd
PMNSMERGE=/usr/lib/pcp/bin/pmnsmerge
PCP_PMDAS=/var/lib/pcp/pmdas
PCP_PMNS=/var/lib/pcp/pmns

# Whether the pcp package is there: the tests skip with this message if not.
pmcd_available() {
	[ -x "$PMCD_BIN" ] && [ -x "$PMNSMERGE" ] && [ -e "$PCP_PMDAS/linux/pmda_linux.so" ] &&
		command -v pminfo >/dev/null
}

# The environment of one private pmcd (and of what it loads): run, log and
# tmp directories are its own, so it writes nothing under /run or /var.
_pmcd_env() { # DIR
	echo "PCP_RUN_DIR=$1/run PCP_LOG_DIR=$1/log PCP_TMP_DIR=$1/tmp PCP_PMCDCONF_PATH=$1/pmcd.conf"
}

# pmcd_setup PORT: the directory, config and namespace; prints the directory.
pmcd_setup() {
	local port=$1 d="$TMPD/pmcd-$1"
	mkdir -p "$d/run" "$d/log" "$d/tmp/mmv"
	[ -s "$d/root" ] || "$PMNSMERGE" "$PCP_PMNS/root_root" "$PCP_PMNS/root_pmcd" \
		"$PCP_PMNS/root_linux" "$PCP_PMNS/root_mmv" "$d/root" >"$d/log/pmnsmerge.log" 2>&1 || return 1
	cat >"$d/pmcd.conf" <<-EOF
	pmcd	2	dso	pmcd_init	$PCP_PMDAS/pmcd/pmda_pmcd.so
	linux	60	dso	linux_init	$PCP_PMDAS/linux/pmda_linux.so
	mmv	70	dso	mmv_init	$PCP_PMDAS/mmv/pmda_mmv.so

	[access]
	allow localhost : fetch;
	disallow * : all;
	EOF
	echo "$d"
}

# pmcd_start PORT: start (or start again) the private pmcd on PORT and wait
# until it answers (up to 10 s).  0 when it answers, 1 otherwise (the log is
# in $TMPD/pmcd-PORT/log).
pmcd_start() {
	local port=$1 d i
	d=$(pmcd_setup "$port") || return 1
	# shellcheck disable=SC2046
	env $(_pmcd_env "$d") "$PMCD_BIN" -f -A -U root -i "${PMCD_ADDR:-127.0.0.1}" -p "$port" \
		-s "$d/run/pmcd.socket" -n "$d/root" -c "$d/pmcd.conf" \
		-l "$d/log/pmcd.log" -x "$d/log/pmcd.err" </dev/null >/dev/null 2>&1 &
	echo $! >"$d/pid"
	# registered once per port: stops whichever pmcd this test started last
	if [ ! -e "$d/cleanup" ]; then
		: >"$d/cleanup"
		cleanup_add "pmcd_stop $port"
	fi
	for ((i = 0; i < 100; i++)); do
		pminfo -h "localhost:$port" pmcd.version >/dev/null 2>&1 && return 0
		kill -0 "$(cat "$d/pid")" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# pmcd_stop PORT: stop the pmcd this test started on PORT and wait for it.
pmcd_stop() {
	local d="$TMPD/pmcd-$1" pid i
	[ -s "$d/pid" ] || return 0
	pid=$(cat "$d/pid")
	kill "$pid" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	: >"$d/pid"
}

# A free loopback port for a pmcd: the first of 44400..44499 nobody listens on.
pmcd_free_port() {
	local p
	for ((p = 44400 + RANDOM % 50; p < 44500; p++)); do
		(echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
	done
	return 1
}
