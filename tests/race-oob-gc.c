// SPDX-License-Identifier: GPL-2.0
/*
 * OOB skbs carrying fds (CVE-2024-36972, 041933a1ec7b): the ring fd and a
 * socket travel in MSG_OOB messages, one held as the queue's oob_skb, while
 * the ring registers both ends of the stream pair.  A reader thread races
 * OOB reads against the collection on the pairs it can still reach.
 *
 * stock, refusing: the ring fd is refused; the pair cycle is collected.
 * patched: ring and sockets are collected, the oob_skb with them.
 */
#include <pthread.h>
#include "lib/ring.h"

#define ROUNDS 100

static volatile int reader_fd = -1, stop;

static void *oob_reader(void *arg)
{
	char c;

	while (!stop) {
		int fd = reader_fd;

		if (fd >= 0)
			recv(fd, &c, 1, MSG_OOB | MSG_DONTWAIT);
	}
	return NULL;
}

int main(void)
{
	long socks = uscm_unix_sockets();
	int probes[ROUNDS], i, bad = 0;
	pthread_t thr;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	pthread_create(&thr, NULL, oob_reader, NULL);
	for (i = 0; i < ROUNDS; i++) {
		struct io_uring ring;
		int sv[2], x[2], p[2], err;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || socketpair(AF_UNIX, SOCK_STREAM, 0, x) ||
		    pipe(p) || io_uring_queue_init(2, &ring, 0) ||
		    io_uring_register_files(&ring, (int []){ sv[0], sv[1], p[1] }, 3))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		err = uscm_send_oob_fd(sv[0], ring.ring_fd);
		bad += err != uscm_ring_send_expect();
		uscm_send_oob_fd(sv[1], sv[1]);
		/* a reachable pair the reader races on, with an fd in its OOB */
		uscm_send_oob_fd(x[0], x[0]);
		reader_fd = x[1];
		close(sv[0]);
		close(sv[1]);
		close(p[1]);
		io_uring_queue_exit(&ring);
		probes[i] = p[0];
		uscm_kick_gc();
		reader_fd = -1;
		close(x[0]);
		close(x[1]);
	}
	stop = 1;
	pthread_join(thr, NULL);
	uscm_expect_collected("rings with OOB fds", bad, probes, ROUNDS, socks);
	ksft_finished();
}
