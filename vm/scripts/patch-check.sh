#!/bin/bash
# patch-check.sh: apply the series one patch at a time to a fresh tree and
# build after each (a patch before the Kconfig symbol exists builds with the
# stock config), run checkpatch.pl --strict on every patch, then build the
# whole series with IO_URING_SCM off and run the suite on it: that kernel
# must behave as stock.
. "$(dirname "$0")/lib.sh"

top=$WORK/src/series-check
src=$top/linux-source-6.1
obj=$(obj_dir series-check)
rm -rf "$top"
mkdir -p "$top"
tar -C "$top" -xf "${SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}"
export QUILT_PATCHES=$SERIES_DIR QUILT_PC=.pc
Q=(quilt --quiltrc "$TOP/vm/quiltrc")
cfg=$TOP/vm/config
fails=0
n=0

# build_at OBJ LOG FRAGMENT...: configure and build the tree as it stands
build_at() {
	local out=$1 buildlog=$2

	shift 2
	"$TOP/vm/scripts/config.sh" "$src" "$out" "$@" &&
		kmake "$src" "$out" -s bzImage modules >"$buildlog" 2>&1
}

for p in $(grep -v '^\s*\(#\|$\)' "$SERIES_DIR/series" | awk '{print $1}'); do
	n=$((n + 1))
	(cd "$src" && "${Q[@]}" push --fuzz=0 -q >/dev/null) || die "patch $n ($p) does not apply"
	# checkpatch: the tarball has no git history, so upstream ids cannot
	# be looked up; everything else is checked
	if ! out=$(cd "$src" && ./scripts/checkpatch.pl --strict -q \
			--ignore UNKNOWN_COMMIT_ID "$SERIES_DIR/$p" 2>&1); then
		echo "not ok - checkpatch $p"; echo "$out" | sed 's/^/# /'
		fails=$((fails + 1))
	else
		echo "ok - checkpatch --strict $p"
	fi
	frags=("$cfg/base.config" "$cfg/qemu.config")
	grep -q '^config IO_URING_SCM$' "$src/init/Kconfig" && frags+=("$cfg/feature.config")
	if phase "patch $n build" build_at "$obj" "$obj/build-$n.log" "${frags[@]}"; then
		echo "ok - builds after patch $n ($p, ${#frags[@]} fragments)"
	else
		echo "not ok - build after patch $n ($p): $obj/build-$n.log"
		fails=$((fails + 1))
	fi
done

# The whole series with the option off must be the stock kernel.
off=$(obj_dir patched-off)
phase "series, IO_URING_SCM off" build_at "$off" "$off/build.log" \
	"$cfg/base.config" "$cfg/qemu.config" || die "off build failed: $off/build.log"
grep -q '^CONFIG_IO_URING_SCM=y' "$off/.config" && die "IO_URING_SCM on in the off build"
if "$TOP/vm/scripts/test.sh" --no-build --image "$off/arch/x86/boot/bzImage" --as patched-off; then
	echo "ok - series with IO_URING_SCM off passes the suite as a stock kernel"
else
	echo "not ok - series with IO_URING_SCM off fails the suite as a stock kernel"
	fails=$((fails + 1))
fi
# case by case the same as the stock kernel's run, where there is one
if [ -e "$OUT/latest-stock.ktap" ]; then
	if "$TOP/vm/scripts/matrix.py" --same "$OUT/latest-stock.ktap" "$OUT/latest-patched-off.ktap"; then
		echo "ok - IO_URING_SCM off: every case ends as on stock"
	else
		echo "not ok - IO_URING_SCM off: cases end differently from stock"
		fails=$((fails + 1))
	fi
fi
[ $fails = 0 ]
