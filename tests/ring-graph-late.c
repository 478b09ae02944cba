// SPDX-License-Identifier: GPL-2.0
/*
 * A table enters the GC graph when its ring is first sent.  A socket
 * taken out of the table while a pending request pins the old rsrc node
 * is put later: without an edge if it left before the first send, with
 * its edge if it left after.  Either way the put must match what the
 * slot held, and the cycle that remains (the ring queued at the other
 * end of the pair, which is still in its table) must be collected.
 *
 * stock, refusing: the ring fd is refused with EINVAL, nothing leaks.
 * patched: every ring collected, no kernel warning (the runner checks
 * dmesg).
 */
#include <poll.h>
#include "lib/ring.h"

#define CYCLES 20
#define POLL_DATA 7

/* A poll that never fires (POLLIN on a pipe's write end) pins the node. */
static void pin_node(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_poll_add(sqe, 2, POLLIN);
	sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = POLL_DATA;
	if (io_uring_submit(ring) != 1)
		ksft_exit_fail_msg("poll submit\n");
}

/* Cancel the poll and reap both completions; the old node dies. */
static void unpin_node(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int i, poll_res = 1;

	io_uring_prep_poll_remove(sqe, POLL_DATA);
	sqe->user_data = 0;
	if (io_uring_submit(ring) != 1)
		ksft_exit_fail_msg("poll remove submit\n");
	for (i = 0; i < 2; i++) {
		if (io_uring_wait_cqe(ring, &cqe))
			ksft_exit_fail_msg("wait cqe\n");
		if (cqe->user_data == POLL_DATA)
			poll_res = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	if (poll_res != -ECANCELED)
		ksft_exit_fail_msg("poll ended with %d, want ECANCELED\n", poll_res);
}

static void late_put(int send_first, const char *name)
{
	long socks = uscm_unix_sockets();
	int probes[CYCLES], i, bad = 0;

	for (i = 0; i < CYCLES; i++) {
		struct io_uring ring;
		int sv[2], p[2], fds[3], ret, skip = -1;

		if (io_uring_queue_init(8, &ring, 0) ||
		    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(p))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		fds[0] = sv[0];
		fds[1] = sv[1];
		fds[2] = p[1];
		ret = io_uring_register_files(&ring, fds, 3);
		if (ret)
			ksft_exit_fail_msg("register: %s\n", uscm_err(ret));
		pin_node(&ring);
		if (send_first)
			bad += uscm_send_fd(sv[0], ring.ring_fd) != uscm_ring_send_expect();
		/* sv[0] leaves the table; its put waits for the poll */
		ret = io_uring_register_files_update(&ring, 0, &skip, 1);
		if (ret != 1)
			ksft_exit_fail_msg("files update: %d\n", ret);
		if (!send_first)
			bad += uscm_send_fd(sv[0], ring.ring_fd) != uscm_ring_send_expect();
		unpin_node(&ring);
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
	late_put(0, "socket left before the first send, put after it");
	late_put(1, "socket left after the first send, put after it");
	ksft_finished();
}
