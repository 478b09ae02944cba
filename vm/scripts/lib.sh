# Shared paths and helpers for the backport scripts; sourced, never run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${BACKPORT_WORK:-$TOP/build}
OUT=${BACKPORT_OUT:-$TOP/out}
SERIES_DIR=$TOP/quilt-patches
BASE_VERSION=$(sed -n 's/^# base: linux-source-6.1 \([0-9.]*\).*/\1/p' "$SERIES_DIR/series")
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$WORK/ccache}
export CCACHE_BASEDIR=$WORK
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

log() { printf '[backport] %s\n' "$*" >&2; }
die() { printf '[backport] error: %s\n' "$*" >&2; exit 1; }

# variant_name STOCK DEBUG -> patched | stock | patched-debug | stock-debug
variant_name() {
	local v=patched
	[ "$1" = 1 ] && v=stock
	[ "$2" = 1 ] && v=$v-debug
	echo "$v"
}

# src_dir STOCK: the unpacked tree the variant builds from
src_dir() {
	if [ "$1" = 1 ]; then echo "$WORK/src/stock/linux-source-6.1"
	else echo "$WORK/src/patched/linux-source-6.1"; fi
}

obj_dir() { echo "$WORK/obj/$1"; }

# kselftest_dir: the selftests of an unpacked tree (the series does not touch
# them), for kselftest.h; whichever tree this machine has unpacked so far
kselftest_dir() {
	local t
	for t in "$(src_dir 1)" "$(src_dir 0)"; do
		[ -f "$t/tools/testing/selftests/kselftest.h" ] && { echo "$t/tools/testing/selftests"; return 0; }
	done
	die "no unpacked tree with tools/testing/selftests (run: backport prepare)"
}

# kmake SRC OBJ ARGS...: the kernel's make, out of tree, through ccache, on
# every core, with the same build stamps wherever it is called from
kmake() {
	local src=$1 obj=$2
	shift 2
	make -C "$src" O="$obj" -j"$JOBS" CC="ccache gcc" KBUILD_BUILD_TIMESTAMP="" \
		KBUILD_BUILD_USER=backport KBUILD_BUILD_HOST=backport "$@"
}

# Phase timing: phase NAME CMD... runs CMD and records how long it took.
PHASES_FILE=${PHASES_FILE:-}
phase() {
	local name=$1 t0 t1 rc=0
	shift
	log "phase: $name"
	t0=$(date +%s.%N)
	"$@" || rc=$?
	t1=$(date +%s.%N)
	[ -n "$PHASES_FILE" ] &&
		printf '%-28s %8.1f s%s\n' "$name" "$(echo "$t1 - $t0" | bc)" \
			"$([ $rc = 0 ] || echo "  (failed: $rc)")" >>"$PHASES_FILE"
	# kept for the benchmarks' P4 rows: when, what, how long, status
	mkdir -p "$OUT" && printf '%s\t%s\t%.1f\t%s\n' "$(date +%s)" "$name" \
		"$(echo "$t1 - $t0" | bc)" $rc >>"$OUT/phases.tsv"
	return $rc
}
