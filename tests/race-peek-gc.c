// SPDX-License-Identifier: GPL-2.0
/*
 * MSG_PEEK during a collection (CVE-2021-0920, e5b31d988a41): one thread
 * keeps peeking at a queue that holds a ring fd and a socket while cycles
 * through rings are built and collected next to it.  The peeked queue is
 * reachable, so nothing it holds may be collected; everything else must.
 *
 * stock, refusing: only the socket is queued; the rings cannot be.
 * patched: the peeked ring survives and still works; all cycles collected.
 */
#include <pthread.h>
#include "lib/ring.h"

#define ROUNDS 200

static int peek_sock;
static volatile int stop;

static void *peeker(void *arg)
{
	while (!stop) {
		int fd = uscm_recv_fd(peek_sock, MSG_PEEK);

		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

int main(void)
{
	long socks;
	int x[2], keep[2], p[2], probes[ROUNDS], i, freed, err;
	struct io_uring kept;
	pthread_t thr;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, x) || socketpair(AF_UNIX, SOCK_DGRAM, 0, keep) ||
	    pipe(p) || io_uring_queue_init(2, &kept, 0) ||
	    io_uring_register_files(&kept, (int []){ keep[0], p[1] }, 2))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	/* x[1] is peeked at and holds: the kept ring (patched), keep[1] */
	err = uscm_send_fd(x[0], kept.ring_fd);
	if (err && err != -EINVAL)
		ksft_exit_fail_msg("send: %s\n", uscm_err(err));
	if (uscm_send_fd(x[0], keep[1]))
		ksft_exit_fail_msg("send: %s\n", strerror(errno));
	close(keep[0]);
	close(keep[1]);
	close(p[1]);
	if (!err)
		io_uring_queue_exit(&kept);
	socks = uscm_unix_sockets();
	peek_sock = x[1];
	pthread_create(&thr, NULL, peeker, NULL);

	for (i = 0; i < ROUNDS; i++) {
		struct io_uring ring;
		int sv[2], q[2];

		if (io_uring_queue_init(2, &ring, 0) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
		    pipe(q) || io_uring_register_files(&ring, (int []){ sv[0], sv[1], q[1] }, 3))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		uscm_send_fd(sv[0], ring.ring_fd);
		uscm_send_fd(sv[1], sv[0]);
		close(sv[0]);
		close(sv[1]);
		close(q[1]);
		io_uring_queue_exit(&ring);
		probes[i] = q[0];
		uscm_kick_gc();
	}
	uscm_kick_gc();
	freed = uscm_wait_eof_all(probes, ROUNDS);
	stop = 1;
	pthread_join(thr, NULL);
	ksft_test_result(freed == ROUNDS, "%d of %d rings collected while peeking\n", freed, ROUNDS);
	i = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!i, "AF_UNIX sockets back at baseline (%+d)\n", i);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	ksft_test_result(!uscm_pipe_eof(p[0]), "the peeked queue's ring kept its files\n");
	close(x[0]);
	close(x[1]);
	ksft_finished();
}
