// SPDX-License-Identifier: GPL-2.0
/*
 * qemu-exit STATUS: leave QEMU through isa-debug-exit (port 0xf4), so the
 * host sees (STATUS << 1) | 1.  Without the device, reboot; with -no-reboot
 * QEMU then exits 0, which the host counts as "no status".
 */
#include <stdlib.h>
#include <sys/io.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 1;

	sync();
	if (ioperm(0xf4, 4, 1) == 0)
		outl(status, 0xf4);
	reboot(RB_AUTOBOOT);
	return 1;
}
