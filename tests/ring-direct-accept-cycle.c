// SPDX-License-Identifier: GPL-2.0
/*
 * A cycle through a direct descriptor: a connection accepted with
 * IORING_OP_ACCEPT into the ring's table exists only there.  The client
 * queues the ring fd at it, and everything is closed.  A second round
 * accepts into an allocated slot (IORING_FILE_INDEX_ALLOC).
 *
 * stock, refusing: the ring fd is refused with EINVAL, nothing leaks.
 * patched: the accepted socket's edge closes the cycle; all collected.
 */
#include <sys/un.h>
#include "lib/ring.h"

#define CYCLES 20

static void accept_cycle(int alloc, const char *name)
{
	long socks = uscm_unix_sockets();
	int probes[CYCLES], i, bad = 0;

	for (i = 0; i < CYCLES; i++) {
		struct sockaddr_un addr = { .sun_family = AF_UNIX };
		socklen_t len = sizeof(sa_family_t) + 1 + 16;
		struct io_uring_sqe *sqe;
		struct io_uring ring;
		int lfd, cfd, p[2], ret;

		/* abstract address, unique per round */
		snprintf(addr.sun_path + 1, 16, "uscm-acc-%04d", i + alloc * 1000);
		lfd = socket(AF_UNIX, SOCK_STREAM, 0);
		cfd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (io_uring_queue_init(4, &ring, 0) || lfd < 0 || cfd < 0 || pipe(p) ||
		    bind(lfd, (void *)&addr, len) || listen(lfd, 4) ||
		    connect(cfd, (void *)&addr, len))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		ret = io_uring_register_files_sparse(&ring, 4);
		if (!ret)
			ret = io_uring_register_files_update(&ring, 3, &p[1], 1) == 1 ? 0 : -1;
		if (ret)
			ksft_exit_fail_msg("register: %d\n", ret);
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_accept_direct(sqe, lfd, NULL, NULL, 0, 1);
		/* liburing 2.3 adds one to the index, ALLOC included */
		if (alloc)
			sqe->file_index = IORING_FILE_INDEX_ALLOC;
		ret = uscm_ring_run(&ring);
		/* the allocated slot is the first free one, 0 */
		if (ret != 0)
			ksft_exit_fail_msg("accept direct: %d\n", ret);
		bad += uscm_send_fd(cfd, ring.ring_fd) != uscm_ring_send_expect();
		close(cfd);
		close(lfd);
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
	accept_cycle(0, "accept into slot 0");
	accept_cycle(1, "accept into an allocated slot");
	ksft_finished();
}
