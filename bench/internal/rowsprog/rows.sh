#!/usr/bin/env bash
# rows.sh prints the instructions per operation of each row of issue 48's
# table, the library's side and its peer's, counted by callgrind at one P:
# the difference between a run of n2 operations and one of n1, divided by
# n2-n1, so that the program's start is not counted.
#
#	cd bench && internal/rowsprog/rows.sh [binary]
#
# Without a binary it builds ./internal/rowsprog from the working tree.
# Needs valgrind. See docs/performance.md.
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
		--callgrind-out-file="$work/out" "$bin" -row "$1" -side "$2" -n "$3" >/dev/null 2>&1
	sed -n 's/^summary: //p' "$work/out"
}
printf '%-14s %12s %12s %7s\n' row task peer ratio
for spec in newgroup16:200:2200 newgroup1000:4:24 scopego16:200:2200 spawn16:200:2200 \
	spawn1000:4:24 run2:500:5500 run16:200:2200 foreach1000:4:44 mapseq1000:4:44; do
	IFS=: read -r row n1 n2 <<<"$spec"
	t=$(( ($(count "$row" task "$n2") - $(count "$row" task "$n1")) / (n2 - n1) ))
	p=$(( ($(count "$row" peer "$n2") - $(count "$row" peer "$n1")) / (n2 - n1) ))
	printf '%-14s %12d %12d %6.2fx\n' "$row" "$t" "$p" "$(echo "$t / $p" | bc -l)"
done
