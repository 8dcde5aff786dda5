#!/usr/bin/env bash
# rows.sh prints the instructions per operation of each row of issue 48's
# table, the library's side, its peer's and, where the row has one, the
# floor's (what an expert writes by hand), counted by callgrind at one P:
# the difference between a run of n2 operations and one of n1, divided by
# n2-n1, so that the program's start is not counted.
#
#	cd bench && internal/rowsprog/rows.sh [binary]
#
# Without a binary it builds ./internal/rowsprog from the working tree.
# The environment passes through: GOGC=off leaves the collector out of the
# counts, which then repeat to a few instructions. Needs valgrind. See
# docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$bin" ]; then
	bin=$work/rows
	go build -o "$bin" ./internal/rowsprog
fi
count() { # row side n
	GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
		--callgrind-out-file="$work/out" "$bin" -row "$1" -side "$2" -n "$3" >/dev/null 2>&1 || return 1
	sed -n 's/^summary: //p' "$work/out"
}
per_op() { # row side n1 n2
	local a b
	a=$(count "$1" "$2" "$3") && b=$(count "$1" "$2" "$4") || { echo -; return; }
	echo $(((b - a) / ($4 - $3)))
}
ratio() { if [ "$2" = - ]; then echo -; else printf '%.2fx' "$(echo "$1 / $2" | bc -l)"; fi; }
printf '%-14s %10s %10s %7s %10s %7s\n' row task peer ratio floor ratio
for spec in newgroup16:200:2200 newgroup1000:4:24 scopego16:200:2200 spawn16:200:2200 \
	spawn1000:4:24 run2:500:5500 run16:200:2200 foreach1000:4:44 mapseq1000:4:44; do
	IFS=: read -r row n1 n2 <<<"$spec"
	t=$(per_op "$row" task "$n1" "$n2")
	p=$(per_op "$row" peer "$n1" "$n2")
	f=$(per_op "$row" floor "$n1" "$n2")
	printf '%-14s %10s %10s %7s %10s %7s\n' "$row" "$t" "$p" "$(ratio "$t" "$p")" "$f" "$(ratio "$t" "$f")"
done
