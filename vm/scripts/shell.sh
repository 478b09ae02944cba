#!/bin/bash
# shell.sh [--stock] [--debug]: boot the built kernel with the test
# initramfs and give an interactive shell on the console (Ctrl-a x quits).
. "$(dirname "$0")/lib.sh"

args=()
for a; do
	case $a in --stock|--debug) args+=("$a") ;; *) die "shell: unknown $a" ;; esac
done
kernel=$("$TOP/vm/scripts/image.sh" "${args[@]}")
scratch=$WORK/runs/shell-$$
trap 'rm -rf "$scratch"' EXIT
make -s -C "$TOP/tests" O="$scratch/tests" KSELFTEST="$(kselftest_dir)"
mods=()
ko=$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")/gc-inspector.ko
[ -f "$ko" ] && mods+=("$ko")
"$TOP/vm/scripts/initramfs.sh" "$scratch/boottest.img" "$scratch/tests" "${mods[@]}"
exec qemu-system-x86_64 -machine q35,accel="$("$TOP/vm/scripts/accel.sh" "$kernel")" \
	-cpu max -m 1G -smp 2 -nodefaults -nographic -no-reboot \
	-serial mon:stdio -serial null -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$kernel" -initrd "$scratch/boottest.img" -append "rd.shell=0 boottest.shell=1"
