#!/usr/bin/env bash
# e2e-bench.sh: issue 31's small requests end to end. The BUILT binary (demo data, --dev-clock, a
# known --bootstrap-token) and a bare fiber process sending the very same bytes
# (internal/testkit/bench/barefiber) are each pinned to one core (APP_CPU); wrk, pinned to another
# (LOAD_CPU), drives them in turn over loopback, ROUNDS times, alternating which goes first.
# Prints per route the median requests/s of each and the median of the rounds' ratios
# (of-bare = ours / bare's), and the same by the CPU time each process spent per request
# (read from /proc before and after each run: cpu-of-bare = bare's µs per request / ours), with
# the load average. On a machine other work keeps busy the requests/s swing with what else
# runs on the core; the CPU time per request does not, and on a core of its own it is what
# bounds requests/s. Routes: GET /v4/account and
# /v4/account/users (a page of 100; 120 users are added) with a cloud personal access token of
# demo (a fresh one per wrk run: the rate limits stay on, --cloud-rate-scale 1000 — the most the
# flag takes — which gives a token 800,000 requests a minute; a wrk run lasts 1 s, and a quiet
# machine serves up to 90,000 requests/s; the script stops on any non-2xx answer), a badge, GET /source/devel:tools with
# Basic auth, and an RPM of the public download tree (/download/…/pocket-cli-….x86_64.rpm).
#
#   scripts/e2e-bench.sh                 # builds ./pocketforge and barefiber into a temp dir
#   BIN=/path/to/pocketforge scripts/e2e-bench.sh   # measure another build (before/after)
#
# Knobs: ROUNDS (5), DURATION of each wrk run (1s), CONNS (4; more concurrent Basic-auth
# requests than the sign-in throttle's 5 free failures are refused 429 before issue 31's fix),
# APP_CPU (0), LOAD_CPU (1), PORT (18480; PORT+1 for the bare process), ROUTES (all five:
# account users badge source rpm), LOG_LEVEL (info, the default; warn to see the access log's cost).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5} DURATION=${DURATION:-1s} CONNS=${CONNS:-4} APP_CPU=${APP_CPU:-0} LOAD_CPU=${LOAD_CPU:-1}
PORT=${PORT:-18480} ROUTES=${ROUTES:-"account users badge source rpm"} LOG_LEVEL=${LOG_LEVEL:-info}
for tool in wrk taskset curl jq; do
	command -v $tool >/dev/null || { echo "e2e-bench: $tool is missing (Debian: apt-get install $([ $tool = taskset ] && echo util-linux || echo $tool))" >&2; exit 2; }
done
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 1' TERM # a refused run (see run) ends the script through cleanup
if [ -z "${BIN:-}" ]; then
	go build -o "$work/pocketforge" . && BIN=$work/pocketforge
fi
go build -o "$work/barefiber" ./internal/testkit/bench/barefiber

root=dev-bench-token
app=http://127.0.0.1:$PORT bare=http://127.0.0.1:$((PORT + 1))
taskset -c "$APP_CPU" "$BIN" --data "$work/data.db" --dev-clock --bootstrap-token $root --addr 127.0.0.1:$PORT \
	--cloud-rate-scale 1000 --log-level "$LOG_LEVEL" ${EXTRA_FLAGS:-} >"$work/app.out" 2>"$work/app.log" &
pids+=($!)
for i in $(seq 300); do curl -sf "$app/_appliance/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "$app/_appliance/readyz" >/dev/null || { echo "e2e-bench: the appliance did not get ready:" >&2; tail "$work/app.log" >&2; exit 1; }

# The demo products build after ready: move the dev clock until the farm is idle, so the
# runs measure requests, not builds.
for i in $(seq 120); do
	busy=$(curl -s "$app/metrics" | awk '/^pocketforge_buildfarm_(jobs\{state="(building|scheduled)"\}|queue_length)/ { n += $2 } END { print n + 0 }')
	[ "$busy" = 0 ] && break
	curl -s -H "Authorization: Bearer $root" -d '{"advance":"10m"}' "$app/_appliance/clock" >/dev/null
	sleep 0.5
done
# A page of 100 users.
for i in $(seq -w 120); do
	curl -sf -H "Authorization: Bearer $root" -H 'Content-Type: application/json' \
		-d "{\"username\":\"bench-user-$i\",\"email\":\"u$i@example.com\",\"restricted\":false}" "$app/v4/account/users" >/dev/null
done
pat() { curl -sf -H "Authorization: Bearer $root" -H 'Content-Type: application/json' \
	-d '{"label":"e2e-bench","scopes":"*"}' "$app/v4/profile/tokens" | jq -r .token; }
basic="Authorization: Basic $(printf alice:alice-password | base64)"

declare -A path auth
path[account]=/v4/account auth[account]=cloud
path[users]=/v4/account/users auth[users]=cloud
path[badge]=/badge/devel:tools.svg auth[badge]=
path[source]=/source/devel:tools auth[source]=basic
# an RPM of the public download tree (issue 34), no credentials
rpm=$(curl -s "$app/download/Pocket:/1.0/standard/x86_64/" | grep -o 'pocket-cli-[^"/]*\.x86_64\.rpm' | head -1)
path[rpm]=/download/Pocket:/1.0/standard/x86_64/$rpm auth[rpm]=
header() { # header ROUTE: the credential header of one run against the appliance
	case ${auth[$1]} in
	cloud) echo "Authorization: Bearer $(pat)" ;;
	basic) echo "$basic" ;;
	esac
}
args=()
for r in $ROUTES; do
	h=$(header "$r")
	args+=("${path[$r]}${h:+ $h}")
done
taskset -c "$APP_CPU" "$work/barefiber" -from "$app" -addr 127.0.0.1:$((PORT + 1)) "${args[@]}" 2>"$work/bare.log" &
pids+=($!)
for i in $(seq 100); do curl -s -o /dev/null "$bare/" && break; sleep 0.1; done

# cputicks PID: the CPU time the process has used (user + system, all threads), in clock ticks.
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# run URL HEADER PID: one wrk run against the process PID serves; prints its requests/s and
# the server's CPU time per request in µs (fails on any non-2xx answer or socket error).
run() {
	local out t0 t1
	t0=$(cputicks "$3")
	out=$(taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" ${2:+-H "$2"} "$1")
	t1=$(cputicks "$3")
	if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
		echo "e2e-bench: $1: $(grep -E 'Non-2xx|Socket errors' <<<"$out")" >&2
		kill $$ # run is called in $(…): exit would only leave the subshell
		exit 1
	fi
	awk -v t="$((t1 - t0))" -v hz="$hz" '/requests in/ { n = $1 } /^Requests\/sec:/ { r = $2 } END { printf "%s %.2f\n", r, t / hz * 1e6 / n }' <<<"$out"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "e2e-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?') binary $BIN; app and bare on cpu $APP_CPU, wrk on cpu $LOAD_CPU, -c$CONNS -d$DURATION, $ROUNDS rounds, --log-level $LOG_LEVEL"
echo "of-bare: our requests/s over bare's; cpu-of-bare: bare's CPU time per request over ours (what one core could serve; steady while other work shares the machine)"
printf '%-8s %-24s %8s %8s %8s %9s %9s %11s  %s\n' route path ours/s bare/s of-bare "ours µs" "bare µs" cpu-of-bare "rounds (of-bare/cpu-of-bare)"
apppid=${pids[0]} barepid=${pids[1]}
for r in $ROUTES; do
	ours=() theirs=() ratios=() oc=() bc=() cratios=() each=()
	for round in $(seq "$ROUNDS"); do
		run "$app${path[$r]}" "$(header "$r")" "$apppid" >/dev/null # warm up (token cache, connections)
		h=$(header "$r")                                              # a fresh token's budget for the run
		if ((round % 2)); then
			read -r a ac <<<"$(run "$app${path[$r]}" "$h" "$apppid")"
			read -r b bcpu <<<"$(run "$bare${path[$r]}" "" "$barepid")"
		else
			read -r b bcpu <<<"$(run "$bare${path[$r]}" "" "$barepid")"
			read -r a ac <<<"$(run "$app${path[$r]}" "$h" "$apppid")"
		fi
		ours+=("$a") theirs+=("$b") oc+=("$ac") bc+=("$bcpu")
		ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
		cratios+=("$(awk -v a="$ac" -v b="$bcpu" 'BEGIN { printf "%.3f", b / a }')")
		each+=("${ratios[-1]}/${cratios[-1]}")
	done
	printf '%-8s %-24s %8.0f %8.0f %8s %9s %9s %11s  %s\n' "$r" "${path[$r]}" \
		"$(printf '%s\n' "${ours[@]}" | median)" "$(printf '%s\n' "${theirs[@]}" | median)" \
		"$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${oc[@]}" | median)" \
		"$(printf '%s\n' "${bc[@]}" | median)" "$(printf '%s\n' "${cratios[@]}" | median)" "${each[*]}"
done
echo "load: $(uptime)"
