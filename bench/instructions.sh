#!/usr/bin/env bash
# instructions.sh counts the instructions a child (or an input) of one of
# the bench module's loops costs, by whose code runs them: the library's
# (package task), errgroup's, the runtime's (runtime, sync, internal), the
# context package's, and the rest (the benchmark and the test binary's
# start, spread over the children). Counts come from callgrind at one P, so
# that they do not move with the machine's load, as times do.
#
#	cd bench && ./instructions.sh 'Loop/impl=task-scope-go$/out=err/n=1000$/mode=immediate/limit=none' 1000
#
# The first argument is a -test.bench pattern that must match one
# benchmark; the second, the children per operation. Needs valgrind
# (Debian: apt-get install valgrind). See docs/performance.md.
set -euo pipefail
pattern=$1
per_op=$2
iters=${3:-10}
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/bench.test" .
# asyncpreemptoff: callgrind fails on the runtime's preemption signals.
GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
	"$work/bench.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "${iters}x" >"$work/log" 2>&1 ||
	{ cat "$work/log"; exit 1; }
grep '^Benchmark' "$work/log"
# The benchmark runs once with b.N = 1, then with b.N = iters.
callgrind_annotate --threshold=100 "$work/out" | awk -v n=$((per_op * (iters + 1))) '
	match($0, /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]+:[^ ]+/) {
		ir = $1; gsub(",", "", ir)
		fn = $0; sub(/^[^)]*\) +/, "", fn); sub(/ .*/, "", fn); sub(/^[^:]*:/, "", fn)
		if (fn ~ /^(runtime\.|internal\/|sync\.|sync\/)/) g = "runtime"
		else if (fn ~ /tasktuple\/task/ && fn !~ /\/bench/) g = "task"
		else if (fn ~ /errgroup/) g = "errgroup"
		else if (fn ~ /^context\./) g = "context"
		else g = "other"
		sum[g] += ir; all += ir
	}
	END {
		for (g in sum) printf "%-9s %8.1f instructions per child\n", g, sum[g] / n
		printf "%-9s %8.1f\n", "total", all / n
	}' | sort
