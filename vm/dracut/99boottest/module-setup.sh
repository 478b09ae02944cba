#!/bin/bash
# dracut module: run the package's tests from the cmdline hook, then exit
# QEMU through isa-debug-exit.  Only included when asked for (-m boottest).

check() { return 255; }

depends() { echo base; return 0; }

install() {
	inst_multiple timeout sort cat grep sed tr mkdir cut insmod setsid ls ps
	inst_simple "$moddir/qemu-exit" /usr/bin/qemu-exit
	inst_hook cmdline 00 "$moddir/run-tests.sh"
	local t
	for t in "${BOOTTEST_DIR:?}"/*; do
		[ -f "$t" ] && inst_simple "$t" "/usr/lib/boottest/tests/${t##*/}"
	done
	for t in "$BOOTTEST_DIR"/outside/*; do
		[ -f "$t" ] && inst_simple "$t" "/usr/lib/boottest/outside/${t##*/}"
	done
	if [ -n "${BOOTTEST_MODULES:-}" ]; then
		for t in $BOOTTEST_MODULES; do
			inst_simple "$t" "/usr/lib/boottest/modules/${t##*/}"
		done
	fi
}
