#!/bin/sh
# Runs one package's benchmarks in RUNS separate processes (default 3) and prints, for every
# benchmark and every metric it reports (ns/op, x-raw, of-bare, p50-ms, …), the median and the
# range of the runs, with the commit and the date: the form README's benchmark table quotes.
# Separate processes, not -count: several benchmarks warm caches or build a world once per
# process, and a second run in the same process would measure the warm case.
#
# usage: scripts/bench-medians.sh PACKAGE BENCH-REGEXP [BENCHTIME] [RUNS]
#   scripts/bench-medians.sh ./api/cloudapi 'GetAccount|ListUsers'
#   scripts/bench-medians.sh ./buildsvc 'SchedulePass' 1x 3
set -eu
pkg=${1:?usage: scripts/bench-medians.sh PACKAGE BENCH-REGEXP [BENCHTIME] [RUNS]}
re=${2:?usage: scripts/bench-medians.sh PACKAGE BENCH-REGEXP [BENCHTIME] [RUNS]}
benchtime=${3:-}
runs=${4:-3}
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/bench.test" "$pkg"
# The test binary runs in the package's directory, as go test runs it (testdata paths).
pkgdir=$(go list -f '{{.Dir}}' "$pkg")
i=1
while [ "$i" -le "$runs" ]; do
	if [ -n "$benchtime" ]; then
		(cd "$pkgdir" && "$dir/bench.test" -test.run XXX -test.bench "$re" -test.benchtime "$benchtime") >"$dir/run$i" 2>&1 || { cat "$dir/run$i"; exit 1; }
	else
		(cd "$pkgdir" && "$dir/bench.test" -test.run XXX -test.bench "$re") >"$dir/run$i" 2>&1 || { cat "$dir/run$i"; exit 1; }
	fi
	i=$((i + 1))
done
echo "# $pkg -bench '$re' ${benchtime:+-benchtime $benchtime }× $runs processes; commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo '+changes'), $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg)"
# Every "BenchmarkX-N  iters  v1 unit1  v2 unit2 …" line: collect values per (benchmark, unit).
cat "$dir"/run* | awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	for (i = 3; i + 1 <= NF; i += 2) {
		key = name SUBSEP $(i + 1)
		if (!(key in cnt)) { units[name] = units[name] " " $(i + 1) }
		vals[key, ++cnt[key]] = $i
	}
}
END {
	for (k = 1; k <= n; k++) {
		name = order[k]; line = name
		m = split(substr(units[name], 2), us, " ")
		for (u = 1; u <= m; u++) {
			key = name SUBSEP us[u]; c = cnt[key]
			for (i = 1; i <= c; i++) v[i] = vals[key, i] + 0
			for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			med = (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
			line = line sprintf("  %s %.4g [%.4g–%.4g]", us[u], med, v[1], v[c])
		}
		print line
	}
}'
