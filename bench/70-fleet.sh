#!/usr/bin/env bash
# iodash fleet at 16, 64, 256 and 1,024 hosts (FLEET_BENCH_HOSTS): CPU per
# host per poll (iodash and its poller processes, user + system), memory
# (PSS of them all), and the time from a host's poll to the front end's
# copy of its row (what the screen draws), from build/bench/bench_fleet
# over 20 rounds at -i 1 (FLEET_BENCH_INTERVAL), best of 3 (FLEET_BENCH_RUNS) by CPU (the runs
# interleaved); then the screen itself at
# the largest count in a 120x40 tmux pane.  The hosts are 127.1.x.y
# addresses of private pmcds that answer on every address (one pmcd takes
# fewer than 1,024 clients: it selects on its sockets, so 512 hosts a
# pmcd).  -i 1, not the default 0.5: every fetch makes a pmcd's linux
# agent read /proc, and 2,048 fetches a second (1,024 hosts at 0.5 s) are
# more than two pmcds get of a shared 2-CPU machine: the rounds then wait
# on pmcd, not on iodash.  Root only (pmcd runs as root here, as in
# tests/e2e/pcp.sh).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
BIN=build/bench/bench_fleet
[ -x "$BIN" ] || { echo "fleet: $BIN not built, skipped"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "fleet: skipped (needs root to run private pmcds)"; exit 0; }
TMPD=$(mktemp -d /tmp/iodash-bench-fleet.XXXXXX)
CLEAN=()
cleanup_add() { CLEAN+=("$1"); }
D=$TMPD
trap 'for c in "${CLEAN[@]}"; do eval "$c"; done; tmux -S "$D/tmux.sock" kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
PMCD_ADDR=0.0.0.0
. tests/e2e/pcp.sh
pmcd_available || { echo "fleet: skipped (no pmcd: Debian's pcp)"; exit 0; }
COUNTS=${FLEET_BENCH_HOSTS:-16 64 256 1024}
max=0
for n in $COUNTS; do [ "$n" -gt "$max" ] && max=$n; done
PORTS=()
for ((k = 0; k * 512 < max; k++)); do
	p=$(pmcd_free_port) && pmcd_start "$p" || { echo "fleet: a private pmcd did not start"; exit 0; }
	PORTS+=("$p")
done
hosts_of() { # N: N host names, 512 to a pmcd
	local i
	for ((i = 0; i < $1; i++)); do
		echo "127.1.$((i / 250)).$((i % 250 + 1)):${PORTS[$((i / 512))]}"
	done
}
# the three runs go round the counts (16, 64, 256, 1,024, then again), so
# that a busy spell of a shared machine falls on one run of several counts,
# not on every run of one
declare -A CPU BEST
for ((run = 1; run <= ${FLEET_BENCH_RUNS:-3}; run++)); do
	for n in $COUNTS; do
		mapfile -t H < <(hosts_of "$n")
		line=$("$BIN" 20 "${FLEET_BENCH_INTERVAL:-1}" "${H[@]}") || { echo "  $n hosts: run $run failed"; continue; }
		echo "  run $run: $line"
		v=$(awk '{print $8}' <<<"$line")
		if [ -z "${CPU[$n]:-}" ] || awk -v a="$v" -v b="${CPU[$n]}" 'BEGIN{exit !(a<b)}'; then
			CPU[$n]=$v BEST[$n]=$line
		fi
	done
done
for n in $COUNTS; do
	[ -n "${BEST[$n]:-}" ] || continue
	awk -v n="$n" '{printf "fleet: %5d hosts, %2d pollers: %5.1f us CPU per host per poll (the front end %.1f of it), %6d kB PSS (%.1f a host), poll to the screen\x27s rows %.0f ms mean, %.0f ms max, rows copied and sorted in %.0f us, %d unreachable\n", n, $4, $8, $20, $10, $10 / n, $12, $14, $16, $18}' <<<"${BEST[$n]}"
done
lo= hi=
for n in "${!CPU[@]}"; do
	v=${CPU[$n]}
	[ -z "$lo" ] || awk -v a="$v" -v b="$lo" 'BEGIN{exit !(a<b)}' && lo=$v
	[ -z "$hi" ] || awk -v a="$v" -v b="$hi" 'BEGIN{exit !(a>b)}' && hi=$v
done
[ -n "$lo" ] && awk -v lo="$lo" -v hi="$hi" 'BEGIN{printf "fleet: CPU per host per poll from %.1f to %.1f us: the largest %.0f %% over the smallest (%s within 20 %%)\n", lo, hi, (hi / lo - 1) * 100, hi <= lo * 1.2 ? "flat" : "NOT flat"}'
# one poller's round as a cost per round and a cost per host: from the
# two counts that have one poller each (16 and 64), T(n) = F + b n
if [ -n "${CPU[16]:-}" ] && [ -n "${CPU[64]:-}" ]; then
	awk -v a="${CPU[16]}" -v b="${CPU[64]}" 'BEGIN{per = (b * 64 - a * 16) / 48; f = a * 16 - per * 16;
		printf "fleet: a poller round costs %.0f us besides its hosts (two processes woken, on cold caches), a host %.1f us: at 16 hosts %.0f %% of a round is that fixed part\n", f, per, f / (a * 16) * 100}'
fi

# what of the 16 hosts' figure the idle second between rounds costs: the
# same 16 hosts with the rounds back to back (-i 0.002: a round takes
# longer, so the poller never sleeps); on this kind of machine a process
# that wakes from an idle second runs its first poll on cold caches (a
# first host's poll about 120 us against 37 for the others, measured with
# the poller's CPU clock), and at 16 hosts that wake is shared by few
if [ -n "${CPU[16]:-}" ]; then
	mapfile -t H < <(hosts_of 16)
	bb=
	for ((run = 1; run <= ${FLEET_BENCH_RUNS:-3}; run++)); do
		line=$("$BIN" 200 0.002 "${H[@]}") || continue
		v=$(awk '{print $8}' <<<"$line")
		if [ -z "$bb" ] || awk -v a="$v" -v b="$bb" 'BEGIN{exit !(a<b)}'; then bb=$v; fi
	done
	[ -n "$bb" ] && awk -v b="$bb" -v a="${CPU[16]}" 'BEGIN{printf "fleet: 16 hosts with the rounds back to back (no idle pause): %.1f us CPU per host per poll, against %.1f with a second between rounds: %.0f %% of the 16-host figure is the wake from idle\n", b, a, (a - b) / a * 100}'
fi

# the screen at the largest count: it draws, counts by state, and what its
# front end (not the pollers) costs a second
command -v tmux >/dev/null && [ -x ./iodash ] || exit 0
hosts_of "$max" >"$TMPD/hosts"
tm_pane fleet "env TERM=tmux-256color ./iodash fleet -i ${FLEET_BENCH_INTERVAL:-1} --hosts $TMPD/hosts"
pid=$(tm display -p -t fleet '#{pane_pid}')
for ((i = 0; i < 300; i++)); do
	tm capture-pane -p -t fleet | grep -Eq "iodash fleet +$max hosts: ([0-9]+ ok|.*ok)" && break
	sleep 0.1
done
sleep 5
c0=$(cpu_ns "$pid"); sleep 10; c1=$(cpu_ns "$pid")
echo "fleet: the screen at $max hosts, 120x40: its front end $(awk -v c=$((c1 - c0)) 'BEGIN{printf "%.2f", c / 1e6 / 10}') ms CPU a second; it shows:"
tm capture-pane -p -t fleet | sed -n '1p;3p;$p' | sed 's/^/    /'
tm send-keys -t fleet q
