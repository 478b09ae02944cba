#!/bin/bash
# initramfs.sh OUT.img TESTDIR [MODULE.ko...]: dracut image with the boottest
# module, from a private module folder (nothing under /usr/lib/dracut changes).
. "$(dirname "$0")/lib.sh"

img=$1 testdir=$2
shift 2
base=$WORK/dracut/base
mkdir -p "$base/modules.d" "$WORK/dracut/conf.d" "$(dirname "$img")"
for f in /usr/lib/dracut/*; do
	[ "${f##*/}" = modules.d ] || ln -sfn "$f" "$base/"
done
for m in /usr/lib/dracut/modules.d/*; do
	ln -sfn "$m" "$base/modules.d/"
done
ln -sfn "$TOP/vm/dracut/99boottest" "$base/modules.d/"

helper=$WORK/dracut/qemu-exit
if [ ! -x "$helper" ] || [ "$TOP/vm/dracut/99boottest/qemu-exit.c" -nt "$helper" ]; then
	gcc -static -O2 -o "$helper" "$TOP/vm/dracut/99boottest/qemu-exit.c"
fi
ln -sfn "$helper" "$TOP/vm/dracut/99boottest/qemu-exit"

BOOTTEST_DIR=$testdir BOOTTEST_MODULES="$*" \
dracutbasedir=$base dracut --quiet --conf /dev/null --confdir "$WORK/dracut/conf.d" \
	--no-hostonly --no-kernel --no-early-microcode --reproducible \
	--modules "dash base boottest" --compress gzip --force "$img" "$BASE_VERSION" \
	>"$img.log" 2>&1 || { cat "$img.log" >&2; die "dracut failed"; }
