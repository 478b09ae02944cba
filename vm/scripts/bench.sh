#!/bin/bash
# bench.sh [PAIRS]: boot stock and patched in turn (A B A B ..., PAIRS
# pairs, default 5), run tests/bench/ in each, and report patched/stock
# ratios (median and spread) against the targets, with a gnuplot PNG.
. "$(dirname "$0")/lib.sh"

pairs=${1:-5}
command -v gnuplot >/dev/null || { [ "$(id -u)" = 0 ] &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnuplot-nox \
		>"$WORK/apt-gnuplot.log" 2>&1; } || die "gnuplot missing"
"$TOP/vm/scripts/build.sh" --stock >/dev/null
"$TOP/vm/scripts/build.sh" >/dev/null
dir=$OUT/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$dir"
export BOOT_MEM=2G
b=bench-p1-read,bench-p2-register,bench-p3-gc
for i in $(seq 1 "$pairs"); do
	for k in stock patched; do
		log "pair $i/$pairs: $k"
		args=(--no-build --only $b --append boottest.timeout=600)
		[ $k = stock ] && args+=(--stock)
		phase "bench $k $i" "$TOP/vm/scripts/test.sh" "${args[@]}" >/dev/null 2>&1 ||
			die "bench boot failed ($k, pair $i)"
		cp "$(ls -t "$OUT"/$k-*bench-p1-read*.ktap | head -1)" "$dir/$k-$i.ktap"
	done
done
"$TOP/vm/scripts/bench-report.py" "$dir" "$pairs"
