#!/bin/bash
# bench.sh [PAIRS]: boot stock and patched in turn (A B, B A, A B ...,
# PAIRS pairs, default 5), run tests/bench/ in each, and report patched/stock
# ratios (median and spread) against the targets, with a gnuplot PNG.
# The hot path (P1), registration (P2) and the acyclic SCM rate run again,
# A B A B, under an instruction clock (QEMU -icount), with the GC (P3):
# the 1-5% targets and P3's are judged there, where a figure does not
# move with the host's speed.
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
b=bench-p1-read,bench-p2-register,bench-p3-scm
# The GC programs run under the instruction clock only: their targets
# (linear growth, ring/pair) are about the work a pass does, and on this
# host's wall clock one pass spread 0.4..2.2x between boots.
icb=$b,bench-p3-gc,bench-sent-rings
# Under TCG the guest keeps time with refined-jiffies unless told the TSC
# rate: 4 ms ticks, lost while busy.  Give it the host's TSC.
clock=""
if [ "$("$TOP/vm/scripts/accel.sh" "$("$TOP/vm/scripts/image.sh" --stock)")" = tcg ]; then
	clock="tsc_early_khz=$("$TOP/vm/scripts/tsc-khz.sh") tsc=reliable"
	log "guest clock: TSC at the host's rate ($clock)"
fi
# bench_boot KERNEL PAIR LIST NAME [TEST-ARGS...]: boot KERNEL (stock or
# patched) with the programs in LIST, keep its KTAP as DIR/NAME-PAIR.ktap,
# and refuse a TCG guest that did not keep time with the TSC.
bench_boot() {
	local k=$1 i=$2 list=$3 name=$4 run
	shift 4
	local args=(--no-build --only "$list" "$@")
	[ "$k" = stock ] && args+=(--stock)
	phase "bench $name $i" "$TOP/vm/scripts/test.sh" "${args[@]}" >/dev/null 2>&1 ||
		die "bench boot failed ($name, pair $i)"
	run=$(ls -t "$OUT/$k"-*-"${list//,/+}".ktap | head -1)
	cp "$run" "$dir/$name-$i.ktap"
	if [ -n "$clock" ] && ! grep 'Switched to clocksource' "${run%.ktap}.console" |
		tail -1 | grep -qE 'clocksource tsc.?$'; then
		die "the $name guest did not keep time with the TSC: ${run%.ktap}.console"
	fi
}
# Odd pairs boot stock first, even pairs patched first (A B, B A, ...):
# a drift of the host's speed during the run, or a cost of coming second,
# then favours neither kernel.
for i in $(seq 1 "$pairs"); do
	order="stock patched"
	[ $((i % 2)) = 0 ] && order="patched stock"
	for k in $order; do
		log "pair $i/$pairs: $k"
		bench_boot "$k" "$i" "$b" "$k" --append "boottest.timeout=600 $clock"
	done
done
# Under the instruction clock a figure does not depend on what else the
# host runs, so each pair's two boots run side by side, one per core.
icount_boot() {
	bench_boot "$1" "$2" "$icb" "icount-$1" --icount --append "boottest.timeout=600"
}
for i in $(seq 1 "$pairs"); do
	log "pair $i/$pairs, instruction clock: stock and patched"
	icount_boot stock "$i" &
	s=$!
	icount_boot patched "$i" &
	p=$!
	rc=0
	wait "$s" || rc=1
	wait "$p" || rc=1
	[ $rc = 0 ] || die "an instruction-clock boot failed (pair $i)"
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
