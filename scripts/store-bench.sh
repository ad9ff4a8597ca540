#!/usr/bin/env bash
# store-bench.sh: issue 36's numbers — the same built binary on the bbolt file and on PostgreSQL
# (--store, one node, a loopback database), each pinned to APP_CPU, driven in turn by wrk pinned
# to LOAD_CPU, ROUNDS times alternating which goes first. Prints per route the median
# requests/s of each and the median of the rounds' ratios (pg/bbolt). Routes: GET /v4/account,
# GET /v4/account/users (120 users added), GET /source/devel:tools (Basic auth), an explorer
# search (/api/products/packages?q=bash), and PUT /v4/account/settings from 64 connections.
# Then start to ready of the PostgreSQL node on the existing database (median of 5).
#
#   scripts/store-bench.sh                       # PGURL unset: a throw-away cluster in a temp dir
#   PGURL=postgres://u:p@host/db scripts/store-bench.sh   # an empty database of yours
#
# Knobs: ROUNDS (3), DURATION (1s), CONNS (4), APP_CPU (0), LOAD_CPU (1), PORT (18580; +1 for
# the PostgreSQL node), BIN (a built pocketforge; default: go build).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3} DURATION=${DURATION:-1s} CONNS=${CONNS:-4} APP_CPU=${APP_CPU:-0} LOAD_CPU=${LOAD_CPU:-1} PORT=${PORT:-18580}
for tool in wrk taskset curl jq; do
	command -v $tool >/dev/null || { echo "store-bench: $tool is missing" >&2; exit 2; }
done
NAME=store-bench
. scripts/bench-pg.sh

root=dev-bench-token
bolt=http://127.0.0.1:$PORT pg=http://127.0.0.1:$((PORT + 1))
common=(--dev-clock --bootstrap-token $root --admin-password bench-admin-pw --cloud-rate-scale 1000 --explorer-rate 0)
taskset -c "$APP_CPU" "$BIN" --data "$work/bolt.db" --addr 127.0.0.1:$PORT "${common[@]}" >"$work/bolt.out" 2>"$work/bolt.log" &
pids+=($!)
startpg() {
	taskset -c "$APP_CPU" "$BIN" --store "$PGURL" --data "$work/replica.db" --addr 127.0.0.1:$((PORT + 1)) "${common[@]}" >"$work/pg.out" 2>>"$work/pg.log" &
	pgpid=$!
}
startpg
ready "$bolt"
ready "$pg"
for app in "$bolt" "$pg"; do # the demo farm idle, 120 users
	for i in $(seq 120); do
		busy=$(curl -s "$app/metrics" | awk '/^pocketforge_buildfarm_(jobs\{state="(building|scheduled)"\}|queue_length)/ { n += $2 } END { print n + 0 }')
		[ "$busy" = 0 ] && break
		curl -s -H "Authorization: Bearer $root" -d '{"advance":"10m"}' "$app/_appliance/clock" >/dev/null
		sleep 0.5
	done
	for i in $(seq -w 120); do
		curl -sf -H "Authorization: Bearer $root" -H 'Content-Type: application/json' \
			-d "{\"username\":\"bench-user-$i\",\"email\":\"u$i@example.com\",\"restricted\":false}" "$app/v4/account/users" >/dev/null
	done
done
pat() { curl -sf -H "Authorization: Bearer $root" -H 'Content-Type: application/json' -d '{"label":"bench","scopes":"*"}' "$1/v4/profile/tokens" | jq -r .token; }
basic="Authorization: Basic $(printf Admin:bench-admin-pw | base64)"
cat >"$work/put.lua" <<'LUA'
wrk.method = "PUT"
wrk.body = '{"longview_subscription":null,"network_helper":true}'
wrk.headers["Content-Type"] = "application/json"
LUA

declare -A path
path[account]=/v4/account path[users]=/v4/account/users path[source]=/source/devel:tools
path[explorer]="/api/products/packages?q=bash" path[settings]=/v4/account/settings
header() { case $1 in account | users | settings) echo "Authorization: Bearer $(pat "$2")" ;; source) echo "$basic" ;; esac; }
run() { # run ROUTE APP: requests/s of one wrk run
	local r=$1 app=$2 h c=$CONNS script=() out
	h=$(header "$r" "$app")
	[ "$r" = settings ] && c=64 script=(-s "$work/put.lua")
	out=$(taskset -c "$LOAD_CPU" wrk -t1 -c"$c" -d"$DURATION" ${h:+-H "$h"} "${script[@]}" "$app${path[$r]}")
	if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then echo "store-bench: $r on $app: $(grep -E 'Non-2xx|Socket errors' <<<"$out")" >&2; fi
	awk '/^Requests\/sec:/ { print $2 }' <<<"$out"
}

echo "store-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(date -u +%F); apps on cpu $APP_CPU, wrk on cpu $LOAD_CPU, -c$CONNS (settings -c64) -d$DURATION, $ROUNDS rounds; database $(sed -E 's#://([^:@]*):[^@]*@#://\1:xxxxx@#' <<<"$PGURL")"
printf '%-9s %-32s %10s %10s %8s  %s\n' route path bbolt/s pg/s pg/bbolt rounds
for r in account users source explorer settings; do
	bs=() ps=() ratios=()
	for round in $(seq "$ROUNDS"); do
		run "$r" "$bolt" >/dev/null
		run "$r" "$pg" >/dev/null # warm up
		if ((round % 2)); then a=$(run "$r" "$bolt"); b=$(run "$r" "$pg"); else b=$(run "$r" "$pg"); a=$(run "$r" "$bolt"); fi
		bs+=("$a") ps+=("$b") ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')")
	done
	printf '%-9s %-32s %10s %10s %8s  %s\n' "$r" "${path[$r]}" "$(printf '%s\n' "${bs[@]}" | median)" "$(printf '%s\n' "${ps[@]}" | median)" \
		"$(printf '%s\n' "${ratios[@]}" | median)" "${ratios[*]}"
done

# Start to ready on the existing database (the replica kept), median of 5.
times=()
for i in 1 2 3 4 5; do
	kill "$pgpid" && wait "$pgpid" 2>/dev/null || true
	t0=$(date +%s.%N)
	startpg
	pids+=("$pgpid")
	ready "$pg"
	times+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')")
done
echo "start to ready on the existing database: median $(printf '%s\n' "${times[@]}" | median) s (${times[*]})"
