// SPDX-License-Identifier: GPL-2.0
/*
 * connect() racing a collection (CVE-2024-26923): a listener held only by
 * a ring's table, with the ring's fd queued at one of its embryos, is a
 * dead cycle; a second thread keeps connecting to it and queueing fds at
 * the new embryos while the GC runs.  The GC collects embryo queues via
 * the listener; nothing may be freed early or left behind.
 *
 * The connector never blocks on a listener nobody accepts on, and gets a
 * listener only once the round's own connect() has queued the ring fd.
 *
 * stock, refusing: ring fds are refused; the listener goes with its ring.
 * patched: every listener-ring cycle is collected.
 */
#include <pthread.h>
#include <sys/un.h>
#include "lib/ring.h"

#define ROUNDS 60

static volatile int cur = -1, stop;

static void addr_of(int i, struct sockaddr_un *a, socklen_t *len)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path + 1, 20, "uscm-conn-%04d", i % 10000);
	*len = sizeof(sa_family_t) + 1 + 20;
}

static void *connector(void *arg)
{
	while (!stop) {
		struct sockaddr_un a;
		socklen_t len;
		int c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0), i = cur;

		if (i < 0) {
			close(c);
			continue;
		}
		addr_of(i, &a, &len);
		if (!connect(c, (void *)&a, len))
			uscm_send_fd(c, c);	/* queued at an embryo */
		close(c);
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
	pthread_create(&thr, NULL, connector, NULL);
	for (i = 0; i < ROUNDS; i++) {
		struct sockaddr_un a;
		struct io_uring ring;
		socklen_t len;
		int l, c, p[2];

		addr_of(i, &a, &len);
		l = socket(AF_UNIX, SOCK_STREAM, 0);
		c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (l < 0 || c < 0 || bind(l, (void *)&a, len) || listen(l, 64) || pipe(p) ||
		    io_uring_queue_init(2, &ring, 0) ||
		    io_uring_register_files(&ring, (int []){ l, p[1] }, 2))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		if (connect(c, (void *)&a, len))
			ksft_exit_fail_msg("connect: %s\n", strerror(errno));
		bad += uscm_send_fd(c, ring.ring_fd) != uscm_ring_send_expect();
		cur = i;
		close(c);
		close(l);
		close(p[1]);
		io_uring_queue_exit(&ring);
		probes[i] = p[0];
		uscm_kick_gc();
	}
	usleep(100000);
	stop = 1;
	pthread_join(thr, NULL);
	uscm_expect_collected("listener rings under connect()", bad, probes, ROUNDS, socks);
	ksft_finished();
}
