#!/bin/sh
# Prints the size of the release binary (scripts/build-static.sh: static, stripped) and the
# modules that take the most of it, by the summed size of their symbols (go tool nm -size). A
# stripped binary has no symbol table, so the modules are measured on a second build with the
# same flags that keeps it; the code and data are the same. Zero-filled memory (.bss, .noptrbss:
# no bytes in the file) is left out; the Go standard library and runtime, and the linker's own
# tables (pclntab, func metadata), count as "std+runtime".
#
# usage: scripts/binsize.sh [N] [BOUND_MIB]
#   N          modules to list (default 5)
#   BOUND_MIB  when given, exit 1 if the stripped binary is larger than BOUND_MIB MiB
set -eu
top=${1:-5}
bound=${2:-}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/build-static.sh "$tmp/stripped" >/dev/null
CGO_ENABLED=0 go build -trimpath -buildvcs=false -o "$tmp/full" .
size=$(wc -c <"$tmp/stripped")
mib=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')
echo "stripped static binary: $size bytes ($mib MiB)"
# Module paths, longest first, so a symbol goes to the most specific module that prefixes it.
go version -m "$tmp/full" | awk '$1 == "mod" || $1 == "dep" { print length($2), $2 }' |
	sort -rn | cut -d' ' -f2- >"$tmp/mods"
go tool nm -size "$tmp/full" >"$tmp/nm"
echo "largest modules by summed symbol size (bytes):"
awk -v mods="$tmp/mods" '
	function hex(a) { return sprintf("%16s", a) }   # addresses compare as padded strings
	BEGIN { while ((getline m < mods) > 0) list[n++] = m }
	NR == FNR { if ($4 == "runtime.bss") lo = hex($1); if ($4 == "runtime.enoptrbss") hi = hex($1); next }
	{
		if (lo != "" && hex($1) >= lo && hex($1) < hi) next   # zero-filled: not in the file
		name = $4
		sub(/^(type:|go:(itab|string|link|info)\.|gclocals·)/, "", name)
		sub(/^(\.?(eq|hash|namedata)\.)/, "", name)
		sub(/^[*\[\]0-9]*/, "", name)
		owner = ""
		for (i = 0; i < n; i++) if (index(name, list[i]) == 1) { owner = list[i]; break }
		if (owner == "") { split(name, p, "/"); owner = (index(name, "/") && p[1] ~ /\./) ? "(other)" : "std+runtime" }
		sum[owner] += $2
	}
	END { for (o in sum) printf "%12d  %s\n", sum[o], o }' "$tmp/nm" "$tmp/nm" | sort -rn | head -n "$top"
if [ -n "$bound" ] && [ "$size" -gt $((bound * 1048576)) ]; then
	echo "the stripped binary is $mib MiB, over the bound of $bound MiB" >&2
	exit 1
fi
