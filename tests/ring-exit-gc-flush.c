// SPDX-License-Identifier: GPL-2.0
/*
 * A sender that waits for the GC while its rings exit (make bench of
 * 2026-12-07: bench-sent-rings hung, one boot in five).
 *
 * A ring's exit work waits, interruptibly, for the ring's creator to run
 * a task_work.  A sender of an AF_UNIX fd whose user has more than
 * UNIX_INFLIGHT_SANE_USER (2024) fds in flight waits, uninterruptibly,
 * for the GC work.  6.1.192 queues both on system_unbound_wq: once its 512
 * active items are exit works waiting for that sender, the GC is never
 * started and neither side moves again, nor does any other unbound work.
 * Upstream 73eaa2b58349 ("io_uring: use private workqueue for exit work")
 * gave exit works their own workqueue; 6.1.192 lacks it.  Stock can reach
 * this; the patched kernel, whose GC makes rings garbage by the thousand,
 * reaches it in make bench.
 *
 * Here: 2277 sockets in flight, 2048 rings closed at once, a GC queued
 * behind their exit works, then one more socket sent.
 *
 * stock: not run (XFAIL): the sender and every unbound work would wait for
 *        good; uscm_exit_wq_stock on the kernel command line runs it.
 * patched, refusing: the send returns, every ring and socket is freed.
 */
#define _GNU_SOURCE		/* close_range() */
#include <sys/resource.h>
#include <unistd.h>
#include "lib/ring.h"

#define IN_FLIGHT_MSGS 9	/* 9 * 253 fds in flight > 2024 */
#define RINGS 2048		/* four times system_unbound_wq's max_active */

static int run_on_stock(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return strstr(line, "uscm_exit_wq_stock") != NULL;
}

/* Opens RINGS rings on consecutive fds; the first one. */
static int open_rings(void)
{
	int i, first = -1, fd = -1;

	for (i = 0; i < RINGS; i++) {
		struct io_uring_params p = { 0 };

		fd = io_uring_setup(1, &p);
		if (fd < 0)
			ksft_exit_fail_msg("ring %d: %s\n", i, strerror(-fd));
		if (first < 0)
			first = fd;
	}
	if (fd != first + RINGS - 1)
		ksft_exit_fail_msg("ring fds %d..%d are not consecutive\n", first, fd);
	return first;
}

int main(void)
{
	struct rlimit rl = { 65536, 65536 };
	long socks, files, socks_left, files_left;
	int sv[2], fds[253], kick, first, i, err;

	ksft_print_header();
	ksft_set_plan(1);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (uscm_kernel() == KERNEL_STOCK && !run_on_stock()) {
		ksft_test_result_xfail("not run: on stock the sender waits for good (no 73eaa2b58349)\n");
		ksft_finished();
	}
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));

	socks = uscm_unix_sockets();
	files = uscm_file_nr();
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
	for (i = 0; i < 253; i++)
		fds[i] = sv[0];
	for (i = 0; i < IN_FLIGHT_MSGS; i++) {
		err = uscm_send_fds(sv[0], fds, 253);
		if (err)
			ksft_exit_fail_msg("send %d: %s\n", i, strerror(-err));
	}

	kick = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (kick < 0)
		ksft_exit_fail_msg("socket: %s\n", strerror(errno));
	first = open_rings();
	/* every exit work waits for us to run its task_work */
	if (close_range(first, first + RINGS - 1, 0))
		ksft_exit_fail_msg("close_range: %s\n", strerror(errno));
	/* queues a collection: fds are in flight */
	close(kick);
	/* with 2277 fds of ours in flight, waits for that collection */
	err = uscm_send_fd(sv[0], sv[0]);

	close(sv[0]);
	close(sv[1]);
	socks_left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	files_left = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files;
	ksft_print_msg("send: %s; %ld sockets and %ld files (slack %d) left\n",
		       uscm_err(err), socks_left, files_left, USCM_FILE_NR_SLACK);
	ksft_test_result(!err && socks_left <= 0 && files_left <= USCM_FILE_NR_SLACK,
			 "send with %d rings exiting returns, rings and sockets freed\n", RINGS);
	ksft_finished();
}
