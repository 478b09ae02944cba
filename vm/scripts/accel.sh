#!/bin/bash
# accel.sh BZIMAGE: print "kvm" only if a short KVM boot probe reaches the
# kernel's console; otherwise "tcg" (KVM guests stall on these machines).
. "$(dirname "$0")/lib.sh"

case ${ACCEL:-auto} in tcg|kvm) echo "$ACCEL"; exit 0 ;; esac
if [ ! -w /dev/kvm ]; then echo tcg; exit 0; fi
probe=$WORK/kvm-probe.result
if [ -f "$probe" ]; then cat "$probe"; exit 0; fi
mkdir -p "$WORK"
log=$(mktemp)
timeout 15 qemu-system-x86_64 -machine q35,accel=kvm -cpu qemu64 -m 256M \
	-nodefaults -nographic -monitor none -no-reboot -serial file:"$log" \
	-kernel "$1" -append "console=ttyS0 rdinit=/nonexistent panic=-1" \
	</dev/null >/dev/null 2>&1 || true
if grep -q 'Linux version' "$log"; then echo kvm; else echo tcg; fi | tee "$probe"
rm -f "$log"
