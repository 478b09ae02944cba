// SPDX-License-Identifier: GPL-2.0
/*
 * Two rings, each holding one end of a socket pair, each ring's fd queued
 * at the socket held by the other ring; then everything is closed.  The
 * cycle runs ring A -> socket b -> ring B -> socket a -> ring A.
 *
 * stock, refusing: the ring fds are refused with EINVAL, nothing leaks.
 * patched: both sends succeed and the GC collects both rings.
 */
#include "lib/ring.h"

#define CYCLES 25

int main(void)
{
	long socks = uscm_unix_sockets();
	int probes[2 * CYCLES], i, bad = 0;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	for (i = 0; i < CYCLES; i++) {
		struct io_uring a, b;
		int sv[2], pa[2], pb[2], fa[2], fb[2];

		if (io_uring_queue_init(4, &a, 0) || io_uring_queue_init(4, &b, 0) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || pipe(pa) || pipe(pb))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		fa[0] = sv[0];
		fa[1] = pa[1];
		fb[0] = sv[1];
		fb[1] = pb[1];
		if (io_uring_register_files(&a, fa, 2) || io_uring_register_files(&b, fb, 2))
			ksft_exit_fail_msg("register failed\n");
		/* sent on sv[0], queued at sv[1] (held by b), and back */
		bad += uscm_send_fd(sv[0], a.ring_fd) != uscm_ring_send_expect();
		bad += uscm_send_fd(sv[1], b.ring_fd) != uscm_ring_send_expect();
		close(sv[0]);
		close(sv[1]);
		close(pa[1]);
		close(pb[1]);
		io_uring_queue_exit(&a);
		io_uring_queue_exit(&b);
		probes[2 * i] = pa[0];
		probes[2 * i + 1] = pb[0];
	}
	uscm_expect_collected("two rings", bad, probes, 2 * CYCLES, socks);
	ksft_finished();
}
