#!/bin/bash
# test.sh [--stock] [--debug] [--only LIST] [--sysctl-refuse] [--no-build]
#         [--append KERNEL-ARGS] [--image BZIMAGE --as LABEL] [--icount]:
# build (if needed), make the initramfs, boot, and fold the KTAP into one line.
# --icount: the guest clock counts instructions (1 ns each, TSC at 1 GHz),
# so that a benchmark's figure is the kernel's work, not the host's speed.
. "$(dirname "$0")/lib.sh"

stock=0 debug=0 only="" append="" build=1 image="" label="" extra="" refusing=0
while [ $# -gt 0 ]; do
	case $1 in
	--stock) stock=1 ;;
	--debug) debug=1 ;;
	--only) only=$2; shift ;;
	--sysctl-refuse) append="$append sysctl.kernel.io_uring_scm_rights=0" refusing=1 ;;
	--no-build) build=0 ;;
	--append) append="$append $2"; shift ;;
	--image) image=$2; shift ;;
	--as) label=$2; shift ;;
	--extra) extra=$2; shift ;;
	--icount)
		export BOOT_ICOUNT=0
		append="$append boottest.icount=1 tsc_early_khz=1000000 tsc=reliable" ;;
	*) die "test: unknown $1" ;;
	esac
	shift
done
args=()
[ $stock = 1 ] && args+=(--stock)
[ $debug = 1 ] && args+=(--debug)
variant=$(variant_name $stock $debug)
if [ -n "$image" ]; then
	kernel=$image
	variant=${label:-custom}
else
	if [ $build = 1 ]; then
		"$TOP/vm/scripts/build.sh" "${args[@]}" >/dev/null
	fi
	kernel=$("$TOP/vm/scripts/image.sh" "${args[@]}")
fi

[ $refusing = 1 ] && variant=$variant-refusing
mkdir -p "$OUT"
run=$OUT/$variant-$(date +%Y%m%d-%H%M%S)${only:+-${only//,/+}}
# private per run, so that runs in parallel do not share an initramfs
scratch=$WORK/runs/$(basename "$run")-$$
tests=$scratch/tests
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
mods=()
ko=$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")/gc-inspector.ko
[ -f "$ko" ] && mods+=("$ko")
# The image depends only on what goes into it: reuse one built from the
# same tests, dracut module, extra programs and inspector module.
key=$({
	(cd "$TOP" && find tests vm/dracut vm/scripts/initramfs.sh -type f -print0 |
		sort -z | xargs -0 sha256sum)
	[ -z "$extra" ] || (cd "$extra" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	[ ${#mods[@]} = 0 ] || sha256sum "${mods[@]}"
	sha256sum "$(kselftest_dir)/kselftest.h"
	dpkg-query -W dracut-core liburing-dev gcc
} | sha256sum | cut -c1-20)
cache=$WORK/initramfs-cache
img=$cache/$key.img
if [ -f "$img" ]; then
	log "initramfs: reusing $img (same tests, dracut module and inspector)"
	touch "$img"
else
	phase "tests (static C)" make -s -C "$TOP/tests" O="$tests" \
		KSELFTEST="$(kselftest_dir)"
	[ -n "$extra" ] && cp -a "$extra"/. "$tests"/
	phase "initramfs (dracut)" "$TOP/vm/scripts/initramfs.sh" "$scratch/boottest.img" \
		"$tests" "${mods[@]}"
	mkdir -p "$cache"
	mv "$scratch/boottest.img" "$img.$$" && mv "$img.$$" "$img"
	# keep the ten most recent images
	ls -t "$cache"/*.img | tail -n +11 | xargs -r rm -f
fi

if [ $debug = 1 ]; then
	# KASAN, kmemleak and lockdep under TCG run the same tests ~10x slower
	export BOOT_MEM=${BOOT_MEM:-2G} BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600}
	append="$append boottest.timeout=1200"
fi
set +e
phase "boot + tests ($variant)" "$TOP/vm/scripts/boot.sh" "$kernel" "$img" "$run" \
	${only:+boottest.only=$only} $append
status=$?
set -e
[ "${V:-0}" = 1 ] && cat "$run.console" >&2
touch "$run.ktap"
set +e
"$TOP/vm/scripts/ktap-summary.py" "$run.ktap" "$status"
rc=$?
set -e
[ -z "$only" ] && ln -sfn "$(basename "$run").ktap" "$OUT/latest-$variant.ktap"
if [ $rc != 0 ]; then
	log "FAILED ($variant); serial log: $run.console, KTAP: $run.ktap"
else
	log "passed ($variant); logs: $run.{console,ktap}"
fi
exit $rc
