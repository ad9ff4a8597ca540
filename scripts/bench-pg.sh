# bench-pg.sh, sourced by the store benchmarks (store-bench.sh, cluster-read-bench.sh): a work
# directory removed at exit with every process in pids, the binary (BIN, or go build), and the
# database: PGURL, or a throw-away PostgreSQL cluster in the work directory as .ci/run starts one,
# on port PORT+9. The caller sets PORT and NAME (for messages).
work=$(mktemp -d)
chmod 755 "$work"
pids=()
pgctl=""
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	[ -n "$pgctl" ] && eval "$pgctl stop -m immediate" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${BIN:-}" ]; then
	go build -o "$work/pocketforge" . && BIN=$work/pocketforge
fi
if [ -z "${PGURL:-}" ]; then # a throw-away cluster, as .ci/run starts one
	pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ -n "$pgbin" ] || { echo "$NAME: no PostgreSQL (Debian: apt-get install postgresql), or set PGURL" >&2; exit 2; }
	as=""
	[ "$(id -u)" = 0 ] && { chown postgres "$work"; as="su postgres -s /bin/sh -c"; }
	mkdir -p "$work/pg" && [ -n "$as" ] && chown postgres "$work/pg"
	run_pg() { if [ -n "$as" ]; then $as "$*"; else sh -c "$*"; fi; }
	run_pg "$pgbin/initdb -D $work/pg/data -U postgres -A trust -E UTF8 >/dev/null"
	pgctl="run_pg $pgbin/pg_ctl -D $work/pg/data"
	run_pg "$pgbin/pg_ctl -D $work/pg/data -l $work/pg/log -w -o '-p $((PORT + 9)) -k $work/pg -c listen_addresses=127.0.0.1' start >/dev/null"
	PGURL="postgres://postgres@127.0.0.1:$((PORT + 9))/postgres?sslmode=disable"
fi

ready() { for i in $(seq 600); do curl -sf "$1/_appliance/readyz" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "$NAME: $1 not ready" >&2; exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
