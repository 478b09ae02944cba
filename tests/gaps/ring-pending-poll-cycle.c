// SPDX-License-Identifier: GPL-2.0
/*
 * Known gap (DESIGN.md, "Known gaps"): a ring with a poll request pending
 * on a socket it reached by plain fd, so that the request holds the
 * socket's file, and the ring fd queued in that socket.  The request's
 * reference is one the GC cannot see, and the poll (POLLPRI on a dgram
 * socket) never fires, so once every fd is closed nothing can break the
 * cycle.
 *
 * stock, refusing: the ring fd is refused; closing the ring cancels the
 * poll and everything is freed.
 * patched: asserts what the feature should give (every ring collected);
 * the series does not yet, so this fails there.  Not part of make check;
 * `make gaps` runs it.
 */
#include <poll.h>
#include "../lib/ring.h"

#define RINGS 20

int main(void)
{
	long socks = uscm_unix_sockets();
	int probes[RINGS], i, bad = 0;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	for (i = 0; i < RINGS; i++) {
		struct io_uring ring;
		int sv[2], p[2];

		if (io_uring_queue_init(4, &ring, 0) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) ||
		    pipe(p) || io_uring_register_files(&ring, &p[1], 1))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		io_uring_prep_poll_add(io_uring_get_sqe(&ring), sv[0], POLLPRI);
		if (io_uring_submit(&ring) != 1)
			ksft_exit_fail_msg("poll_add not submitted\n");
		bad += uscm_send_fd(sv[1], ring.ring_fd) != uscm_ring_send_expect();
		close(sv[0]);
		close(sv[1]);
		close(p[1]);
		io_uring_queue_exit(&ring);
		probes[i] = p[0];
	}
	uscm_expect_collected("ring fd queued in a socket its pending poll holds", bad, probes,
			      RINGS, socks);
	ksft_finished();
}
