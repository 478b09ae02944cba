#!/bin/bash
# boot.sh BZIMAGE INITRD LOGPREFIX [APPEND...]: boot in QEMU and report.
# Writes LOGPREFIX.console (ttyS0) and LOGPREFIX.ktap (ttyS1).  Exit status:
# the guest's own status, or 125 when it never reported (panic, reboot),
# 124 on timeout.  A kernel splat on the console also makes it non-zero.
# BOOT_ICOUNT=N (TCG only): the guest clock counts instructions, 2^N ns each.
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 prefix=$3
shift 3
timeout=${BOOT_TIMEOUT:-900}
mem=${BOOT_MEM:-1G}
accel=$("$TOP/vm/scripts/accel.sh" "$kernel")
log "booting $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") under $accel (timeout ${timeout}s)"
cpu=max
[ "$accel" = kvm ] && cpu=qemu64
icount=()
if [ -n "${BOOT_ICOUNT:-}" ]; then
	[ "$accel" = tcg ] || die "BOOT_ICOUNT needs TCG"
	icount=(-icount shift="$BOOT_ICOUNT")
	log "guest clock: instruction count (-icount shift=$BOOT_ICOUNT)"
fi
rm -f "$prefix.console" "$prefix.ktap"
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 \
	-machine q35,accel="$accel" -cpu "$cpu" -m "$mem" -smp 2 "${icount[@]}" \
	-nodefaults -nographic -monitor none -no-reboot \
	-serial file:"$prefix.console" -serial file:"$prefix.ktap" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$kernel" -initrd "$initrd" \
	-append "rd.shell=0 rd.emergency=poweroff $*" </dev/null
rc=$?
set -e
case $rc in
124) log "guest timed out after ${timeout}s"; status=124 ;;
0) log "guest never reported a status (panic or reboot)"; status=125 ;;
*) if [ $((rc % 2)) = 1 ]; then status=$(((rc - 1) / 2)); else status=125; fi ;;
esac
splat='(BUG|WARNING|INFO): |KASAN|kmemleak: [0-9]+ new|unreferenced object|Kernel panic|Oops|general protection|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|Call Trace'
if grep -qE "$splat" "$prefix.console"; then
	log "kernel reported a problem on the console:"
	grep -nE "$splat" "$prefix.console" | head -5 >&2
	[ $status = 0 ] && status=126
fi
exit $status
