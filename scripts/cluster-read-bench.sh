#!/usr/bin/env bash
# cluster-read-bench.sh: issue 36's read scaling — one node against two on one PostgreSQL
# database, each node pinned to its own core (A to cpu 0, B to cpu 1), reads only. Phase "one":
# wrk against A alone; phase "two": a wrk against each node at once. Prints per route and phase
# the requests/s (the sum of both nodes in "two"), the ratio two/one, and the CPU time each node
# spent per request (from /proc: utime + stime over the run), ROUNDS times, medians.
#
# A read touches only the node's own replica (a bbolt snapshot): nothing shared, so the cost per
# request should not move with the number of nodes, and throughput should grow with the cores
# the nodes get. On a machine whose cores are fewer than the nodes plus the load generator plus
# the database (this project's is 2), the wrk processes take their CPU from the nodes, and the
# ratio shows the machine, not the nodes; CPU per request shows the nodes.
#
#   scripts/cluster-read-bench.sh            # PGURL unset: a throw-away cluster in a temp dir
#
# Knobs: ROUNDS (3), DURATION (2s), CONNS (4 per node), PORT (18680), BIN, PGURL.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3} DURATION=${DURATION:-2s} CONNS=${CONNS:-4} PORT=${PORT:-18680}
for tool in wrk taskset curl jq; do
	command -v $tool >/dev/null || { echo "cluster-read-bench: $tool is missing" >&2; exit 2; }
done
NAME=cluster-read-bench
. scripts/bench-pg.sh

root=dev-bench-token
a=http://127.0.0.1:$PORT b=http://127.0.0.1:$((PORT + 1))
common=(--store "$PGURL" --dev-clock --bootstrap-token $root --admin-password bench-admin-pw --cloud-rate-scale 1000 --explorer-rate 0)
taskset -c 0 "$BIN" --data "$work/a.db" --addr 127.0.0.1:$PORT "${common[@]}" >"$work/a.out" 2>"$work/a.log" &
apid=$!
pids+=($apid)
ready "$a"
taskset -c 1 "$BIN" --data "$work/b.db" --addr 127.0.0.1:$((PORT + 1)) "${common[@]}" >"$work/b.out" 2>"$work/b.log" &
bpid=$!
pids+=($bpid)
ready "$b"
for i in $(seq 120); do # the demo farm idle: the reads measured are the only work
	busy=$(curl -s "$a/metrics" | awk '/^pocketforge_buildfarm_(jobs\{state="(building|scheduled)"\}|queue_length)/ { n += $2 } END { print n + 0 }')
	[ "$busy" = 0 ] && break
	curl -s -H "Authorization: Bearer $root" -d '{"advance":"10m"}' "$a/_appliance/clock" >/dev/null
	sleep 0.5
done
token=$(curl -sf -H "Authorization: Bearer $root" -H 'Content-Type: application/json' -d '{"label":"bench","scopes":"*"}' "$a/v4/profile/tokens" | jq -r .token)
basic="Authorization: Basic $(printf Admin:bench-admin-pw | base64)"
declare -A path hdr
path[account]=/v4/account hdr[account]="Authorization: Bearer $token"
path[source]=/source/devel:tools hdr[source]=$basic
path[explorer]="/api/products/packages?q=bash" hdr[explorer]=""

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # clock ticks
wrkrun() { # wrkrun URL HEADER: requests of one wrk run
	wrk -t1 -c"$CONNS" -d"$DURATION" ${2:+-H "$2"} "$1" | awk '/requests in/ { print $1 }'
}
secs=${DURATION%s}
hz=$(getconf CLK_TCK)

echo "cluster-read-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(date -u +%F); $(nproc) cores; node A on cpu 0, B on cpu 1, wrk unpinned, -c$CONNS per node -d$DURATION, $ROUNDS rounds"
printf '%-9s %10s %10s %7s %14s %14s\n' route one/s two/s two/one 'µs cpu/req 1' 'µs cpu/req 2'
for r in account source explorer; do
	ones=() twos=() ratios=() c1=() c2=()
	for round in $(seq "$ROUNDS"); do
		wrkrun "$a${path[$r]}" "${hdr[$r]}" >/dev/null # warm up
		wrkrun "$b${path[$r]}" "${hdr[$r]}" >/dev/null
		a0=$(cpu $apid)
		n1=$(wrkrun "$a${path[$r]}" "${hdr[$r]}")
		a1=$(cpu $apid) b1=$(cpu $bpid)
		wrkrun "$a${path[$r]}" "${hdr[$r]}" >"$work/na" &
		wrkrun "$b${path[$r]}" "${hdr[$r]}" >"$work/nb"
		wait $!
		n2=$(($(cat "$work/na") + $(cat "$work/nb")))
		used2=$(($(cpu $apid) - a1 + $(cpu $bpid) - b1))
		ones+=("$(awk -v n="$n1" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')")
		twos+=("$(awk -v n="$n2" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')")
		ratios+=("$(awk -v a="$n1" -v b="$n2" 'BEGIN { printf "%.2f", b / a }')")
		c1+=("$(awk -v t="$((a1 - a0))" -v n="$n1" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')")
		c2+=("$(awk -v t="$used2" -v n="$n2" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')")
	done
	printf '%-9s %10s %10s %7s %14s %14s  (two/one: %s)\n' "$r" "$(printf '%s\n' "${ones[@]}" | median)" "$(printf '%s\n' "${twos[@]}" | median)" \
		"$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${c1[@]}" | median)" "$(printf '%s\n' "${c2[@]}" | median)" "${ratios[*]}"
done
