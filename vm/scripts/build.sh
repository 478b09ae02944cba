#!/bin/bash
# build.sh [--stock] [--debug] [--config lean|debian [--config-only]]:
# build one kernel variant into build/obj/<variant>.
. "$(dirname "$0")/lib.sh"

stock=0 debug=0 config=lean config_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--stock) stock=1 ;;
	--debug) debug=1 ;;
	--config) config=$2; shift ;;
	--config-only) config_only=1 ;;
	*) die "build: unknown $1" ;;
	esac
	shift
done
variant=$(variant_name $stock $debug)
if [ "$config" = debian ]; then
	[ $stock = 0 ] && [ $debug = 0 ] || die "--config debian builds the patched kernel only"
	variant=patched-debian
	obj=$(obj_dir "$variant")
	phase "config (Debian + feature)" "$TOP/vm/scripts/config-debian.sh" "$obj"
	[ $config_only = 1 ] && exit 0
	src=$("$TOP/vm/scripts/prepare.sh")
	phase "compile ($variant)" kmake "$src" "$obj" bzImage modules >"$obj/build.log" 2>&1 ||
		die "kernel build failed: $obj/build.log"
	echo "$obj/arch/x86/boot/bzImage"
	exit 0
fi
[ "$config" = lean ] || die "build: --config lean|debian"
obj=$(obj_dir "$variant")
frags=("$TOP/vm/config/base.config" "$TOP/vm/config/qemu.config")
[ $stock = 0 ] && frags+=("$TOP/vm/config/feature.config")
[ $debug = 1 ] && frags+=("$TOP/vm/config/debug.config")

args=(); [ $stock = 1 ] && args=(--stock)
src=$(phase "prepare ($variant)" "$TOP/vm/scripts/prepare.sh" "${args[@]}")
phase "config ($variant)" "$TOP/vm/scripts/config.sh" "$src" "$obj" "${frags[@]}"
log "building $variant kernel in $obj (log: $obj/build.log)"
# "cold": nothing in ccache and no objects yet (the P4 figure of make bench)
cold=""
if [ ! -f "$obj/vmlinux" ] && [ "$(find "$CCACHE_DIR" -type f 2>/dev/null | head -200 | wc -l)" -lt 200 ]; then
	cold=", cold"
fi
phase "compile ($variant$cold)" kmake "$src" "$obj" bzImage modules >"$obj/build.log" 2>&1 || {
	tail -30 "$obj/build.log" >&2
	die "kernel build failed: $obj/build.log"
}
ccache -s 2>/dev/null | grep -iE 'hits|misses' | head -3 >&2 || true
# The GC inspector, with DKMS, for kernels that carry the feature
rm -f "$obj/gc-inspector.ko"
if [ $stock = 0 ]; then
	ko=$(phase "dkms build ($variant)" "$TOP/vm/scripts/dkms.sh" "$obj")
	cp "$ko" "$obj/gc-inspector.ko"
fi
echo "$obj/arch/x86/boot/bzImage"
