// SPDX-License-Identifier: GPL-2.0
/*
 * A cycle through MSG_RING: ring A passes the socket in its slot 0 into
 * ring B's table with IORING_MSG_SEND_FD, B's fd is queued at that socket,
 * and everything is closed.  A goes away on close; B is held only by the
 * cycle, which exists only through the MSG_RING install.
 *
 * stock, refusing: the ring fd is refused with EINVAL, nothing leaks.
 * patched: the installed slot's edge closes the cycle; all collected.
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
		int sv[2], pa[2], pb[2], ret;

		if (io_uring_queue_init(4, &a, 0) || io_uring_queue_init(4, &b, 0) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || pipe(pa) || pipe(pb))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		if (io_uring_register_files(&a, (int []){ sv[1], pa[1] }, 2) ||
		    io_uring_register_files_sparse(&b, 4) ||
		    io_uring_register_files_update(&b, 3, &pb[1], 1) != 1)
			ksft_exit_fail_msg("register failed\n");
		ret = uscm_msg_ring_fd(&a, b.ring_fd, 0, 0);
		if (ret < 0)
			ksft_exit_fail_msg("MSG_RING send fd: %s\n", uscm_err(ret));
		bad += uscm_send_fd(sv[0], b.ring_fd) != uscm_ring_send_expect();
		close(sv[0]);
		close(sv[1]);
		close(pa[1]);
		close(pb[1]);
		io_uring_queue_exit(&a);
		io_uring_queue_exit(&b);
		probes[2 * i] = pa[0];
		probes[2 * i + 1] = pb[0];
	}
	uscm_expect_collected("MSG_RING", bad, probes, 2 * CYCLES, socks);
	ksft_finished();
}
