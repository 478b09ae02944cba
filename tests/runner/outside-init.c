// SPDX-License-Identifier: GPL-2.0
/*
 * Runner self-test: an outside /init, a static binary alone in a plain
 * cpio, must boot on the image `backport image` prints and find what it
 * needs there: proc, AF_UNIX sockets, io_uring and the serial console.
 * It leaves through isa-debug-exit with status 0 only if all of it works.
 */
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void leave(int status)
{
	if (ioperm(0xf4, 4, 1) == 0)
		outl(status, 0xf4);
	reboot(RB_AUTOBOOT);
}

int main(void)
{
	struct io_uring_params p;
	int sv[2], fd, bad = 0;
	char buf[64];

	mkdir("/proc", 0755);
	mkdir("/dev", 0755);
	bad |= mount("proc", "/proc", "proc", 0, NULL) ? 1 : 0;
	bad |= mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) ? 2 : 0;
	fd = open("/dev/ttyS0", O_WRONLY);
	bad |= fd < 0 ? 4 : 0;
	bad |= socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ? 8 : 0;
	memset(&p, 0, sizeof(p));
	bad |= syscall(__NR_io_uring_setup, 4, &p) < 0 ? 16 : 0;
	snprintf(buf, sizeof(buf), "outside-init: status %d\n", bad);
	if (fd >= 0 && write(fd, buf, strlen(buf)) < 0)
		bad |= 32;
	leave(bad);
	return 1;
}
