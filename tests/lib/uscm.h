/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the tests: which kernel we run on, exact object counts,
 * fd passing and waiting for the AF_UNIX GC.  KTAP comes from kselftest.h.
 */
#ifndef USCM_H
#define USCM_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#define USCM_SYSCTL "/proc/sys/kernel/io_uring_scm_rights"

/* The three kernels a case states its expectation for. */
enum uscm_kernel {
	KERNEL_STOCK,		/* no IO_URING_SCM: ring fds refused */
	KERNEL_REFUSING,	/* IO_URING_SCM, sysctl set to refuse */
	KERNEL_PATCHED,		/* IO_URING_SCM as configured */
};

static inline long uscm_read_long(const char *path)
{
	char buf[64] = "";
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtol(buf, NULL, 10);
		fclose(f);
	}
	return v;
}

static inline enum uscm_kernel uscm_kernel(void)
{
	long v = uscm_read_long(USCM_SYSCTL);

	if (v < 0)
		return KERNEL_STOCK;
	return v ? KERNEL_PATCHED : KERNEL_REFUSING;
}

/* Are ring fds refused in SCM_RIGHTS here (stock, or sysctl at 0)? */
static inline int uscm_ring_send_expect_refused(void)
{
	return uscm_kernel() != KERNEL_PATCHED;
}

static inline const char *uscm_kernel_name(void)
{
	static const char * const names[] = { "stock", "refusing", "patched" };

	return names[uscm_kernel()];
}

/*
 * AF_UNIX sockets in use, from /proc/net/protocols (the "UNIX" and
 * "UNIX-STREAM" protos): exact sums of percpu counters.
 */
static inline long uscm_unix_sockets(void)
{
	char line[512];
	long n = -1;
	FILE *f = fopen("/proc/net/protocols", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[32];
		long size, sockets;

		if (sscanf(line, "%31s %ld %ld", name, &size, &sockets) == 3 &&
		    !strncmp(name, "UNIX", 4))
			n = (n < 0 ? 0 : n) + sockets;
	}
	fclose(f);
	return n;
}

/*
 * Allocated files, from /proc/sys/fs/file-nr.  The kernel reads a percpu
 * counter there, so the figure may lag by up to USCM_FILE_NR_SLACK.
 */
#define USCM_FILE_NR_SLACK (64 * 2)
static inline long uscm_file_nr(void)
{
	return uscm_read_long("/proc/sys/fs/file-nr");
}

/*
 * The GC inspector module (gc-inspector/, built by DKMS), when loaded:
 * an exact view of the GC.  -1 when absent (stock kernels).
 */
#define USCM_INSPECTOR "/sys/kernel/debug/uring_scm_gc/"

static inline long uscm_gc_stat(const char *key)
{
	char line[128], name[64];
	long v = -1, n;
	FILE *f = fopen(USCM_INSPECTOR "stats", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &n) == 2 && !strcmp(name, key))
			v = n;
	if (f)
		fclose(f);
	return v;
}

static inline int uscm_have_inspector(void)
{
	return access(USCM_INSPECTOR "stats", R_OK) == 0;
}

/*
 * Objects in use in a slab cache, exactly: shrinking flushes the per-cpu
 * slabs (and KASAN's quarantine) back to the node lists, whose free
 * objects the count excludes.  -1 when the cache is not there.
 */
static inline long uscm_slab_objects(const char *cache)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", cache);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			ksft_print_msg("shrink %s: %s\n", cache, strerror(errno));
		close(fd);
	}
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/objects", cache);
	return uscm_read_long(path);
}

/* AF_UNIX sockets (rings' own sockets included) and io_uring requests. */
#define USCM_SLABS { "UNIX", "UNIX-STREAM", "io_kiocb" }
#define USCM_NSLABS 3

/*
 * A debug kernel (KASAN, kmemleak, lockdep) under TCG runs about ten times
 * slower: every wait for asynchronous teardown gets that much longer.
 */
static inline int uscm_slow(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) == 0 ? 10 : 1;
}

/* Kick the GC: releasing any AF_UNIX socket queues a collection. */
static inline void uscm_kick_gc(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (fd >= 0)
		close(fd);
}

/*
 * Wait until *count() <= want (the collection, a ring's exit work and
 * delayed fput are asynchronous).  Gives up after 10 s, or once the count
 * has not moved for 1 s: nothing else is going to free those objects.
 * Both are ten times longer on a debug kernel.  Returns the last value.
 */
static inline long uscm_wait_le(long (*count)(void), long want)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long v = count(), last = v;
	int i, still = 0, slow = uscm_slow();

	for (i = 0; i < 1000 * slow && v > want && still < 100 * slow; i++) {
		nanosleep(&ts, NULL);
		v = count();
		still = v == last ? still + 1 : 0;
		last = v;
	}
	return v;
}

/* Results must survive a test that is killed half-way. */
__attribute__((constructor)) static void uscm_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Queue fds[0..n) as SCM_RIGHTS on sock with one byte; 0 or -errno. */
static inline int uscm_send_fds_flags(int sock, const int *fds, int n, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 253)];
	char byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = CMSG_SPACE(sizeof(int) * n),
	};
	struct cmsghdr *cmsg;

	memset(cbuf, 0, sizeof(cbuf));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * n);
	return sendmsg(sock, &msg, flags | MSG_DONTWAIT | MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

static inline int uscm_send_fds(int sock, const int *fds, int n)
{
	return uscm_send_fds_flags(sock, fds, n, 0);
}

static inline int uscm_send_fd(int sock, int fd)
{
	return uscm_send_fds(sock, &fd, 1);
}

/* Receive one SCM_RIGHTS fd (or -errno); flags e.g. MSG_PEEK. */
static inline int uscm_recv_fd(int sock, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, flags | MSG_DONTWAIT) < 0)
		return -errno;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -ENOMSG;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(fd));
	return fd;
}

/* 1 when a read end sees EOF (every write end released), else 0. */
static inline int uscm_pipe_eof(int rfd)
{
	char c;

	return read(rfd, &c, 1) == 0;
}

/*
 * Wait, up to 10 s in all (100 s on a debug kernel), for the write ends of
 * n pipes to go away; closes the read ends and returns how many saw EOF.
 */
static inline int uscm_wait_eof_all(int *rfds, int n)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i, left = n, round, slow = uscm_slow();

	for (i = 0; i < n; i++)
		fcntl(rfds[i], F_SETFL, O_NONBLOCK);
	for (round = 0; round < 1000 * slow && left; round++) {
		for (i = 0; i < n; i++) {
			if (rfds[i] >= 0 && uscm_pipe_eof(rfds[i])) {
				close(rfds[i]);
				rfds[i] = -1;
				left--;
			}
		}
		if (left)
			nanosleep(&ts, NULL);
	}
	for (i = 0; i < n; i++)
		if (rfds[i] >= 0)
			close(rfds[i]);
	return n - left;
}

static inline int uscm_wait_eof(int rfd)
{
	return uscm_wait_eof_all(&rfd, 1);
}

#endif
