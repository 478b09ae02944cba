// SPDX-License-Identifier: GPL-2.0
/*
 * A cycle closed by a later IORING_REGISTER_FILES_UPDATE into a sparse
 * table: the ring fd is queued at a socket first, and only then is that
 * socket put into the ring's (until then empty) table.  A second round
 * closes the cycle with IORING_OP_FILES_UPDATE instead.
 *
 * stock, refusing: the ring fd is refused with EINVAL, nothing leaks.
 * patched: the update adds the edge that closes the cycle; all collected.
 */
#include "lib/ring.h"

#define CYCLES 25

static void sparse_cycle(int use_op, const char *name)
{
	long socks = uscm_unix_sockets();
	int probes[CYCLES], i, bad = 0;

	for (i = 0; i < CYCLES; i++) {
		struct io_uring ring;
		int sv[2], p[2], fds[2], ret;

		if (io_uring_queue_init(4, &ring, 0) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
		    pipe(p))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		ret = io_uring_register_files_sparse(&ring, 64);
		if (ret)
			ksft_exit_fail_msg("sparse register: %s\n", uscm_err(ret));
		bad += uscm_send_fd(sv[0], ring.ring_fd) != uscm_ring_send_expect();
		fds[0] = sv[1];
		fds[1] = p[1];
		if (use_op) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_files_update(sqe, fds, 2, 40);
			ret = uscm_ring_run(&ring);
		} else {
			ret = io_uring_register_files_update(&ring, 40, fds, 2);
		}
		if (ret != 2)
			ksft_exit_fail_msg("files update: %d\n", ret);
		close(sv[0]);
		close(sv[1]);
		close(p[1]);
		io_uring_queue_exit(&ring);
		probes[i] = p[0];
	}
	uscm_expect_collected(name, bad, probes, CYCLES, socks);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(6);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	sparse_cycle(0, "REGISTER_FILES_UPDATE");
	sparse_cycle(1, "IORING_OP_FILES_UPDATE");
	ksft_finished();
}
