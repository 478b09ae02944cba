#!/bin/bash
# dkms.sh OBJDIR: build the GC inspector with DKMS against a built kernel
# tree, in a DKMS tree of our own under build/dkms (the host's
# /var/lib/dkms and /lib/modules are not touched).  Prints the .ko path.
. "$(dirname "$0")/lib.sh"

obj=$(cd "$1" && pwd)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
kver=$(cat "$obj/include/config/kernel.release")
d=$WORK/dkms/$(basename "$obj")
rm -rf "$d"
mkdir -p "$d/source/$name-$ver" "$d/tree" "$d/install"
cp -a "$TOP/dkms.conf" "$TOP/gc-inspector" "$TOP/compat" "$d/source/$name-$ver/"
D=(--dkmstree "$d/tree" --sourcetree "$d/source" --installtree "$d/install")
dkms add -m "$name" -v "$ver" "${D[@]}" >"$d/dkms.log" 2>&1 ||
	{ cat "$d/dkms.log" >&2; die "dkms add failed"; }
if ! dkms build -m "$name" -v "$ver" -k "$kver" --kernelsourcedir "$obj" "${D[@]}" \
	>>"$d/dkms.log" 2>&1; then
	if grep -q BUILD_EXCLUSIVE "$d/dkms.log"; then
		die "$name needs a kernel with CONFIG_IO_URING_SCM=y (the uring-scm-backport series); $obj has none, so DKMS refuses it (BUILD_EXCLUSIVE_CONFIG)"
	fi
	grep -iE 'error' "$d/dkms.log" | head -5 >&2
	die "dkms build of $name against $obj failed: $d/dkms.log"
fi
ko=$(find "$d/tree/$name/$ver/$kver" -name "$name*.ko" -o -name 'uring_scm_gc.ko' | head -1)
[ -f "$ko" ] || die "dkms build left no module in $d/tree"
echo "$ko"
