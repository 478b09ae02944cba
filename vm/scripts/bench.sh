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
# P4, the package itself: a rebuild after one patch changes (the top one
# popped and pushed again, so its files are new) and an uncached initramfs;
# cold builds and boot-to-first-test are read from phases.tsv and the KTAP.
src=$("$TOP/vm/scripts/prepare.sh")
(cd "$src" && export QUILT_PATCHES=$SERIES_DIR QUILT_PC=.pc &&
	quilt --quiltrc "$TOP/vm/quiltrc" pop -q >/dev/null &&
	quilt --quiltrc "$TOP/vm/quiltrc" push -q --fuzz=0 >/dev/null) ||
	die "could not pop and push the top patch"
t0=$SECONDS
phase "P4 rebuild after one patch" "$TOP/vm/scripts/build.sh" >/dev/null
printf 'p4_rebuild_one_patch\t%s\ts\n' $((SECONDS - t0)) >"$dir/p4.tsv"
scratch=$WORK/runs/bench-p4-$$
make -s -C "$TOP/tests" O="$scratch/tests" KSELFTEST="$(kselftest_dir)"
t0=$SECONDS
phase "P4 initramfs (dracut)" "$TOP/vm/scripts/initramfs.sh" "$scratch/img" "$scratch/tests" \
	"$(obj_dir patched)/gc-inspector.ko"
printf 'p4_initramfs\t%s\ts\n' $((SECONDS - t0)) >>"$dir/p4.tsv"
rm -rf "$scratch"
"$TOP/vm/scripts/bench-report.py" "$dir" "$pairs" "$OUT/phases.tsv"
