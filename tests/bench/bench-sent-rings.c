// SPDX-License-Identifier: GPL-2.0
/*
 * What only a kernel that lets ring fds into SCM_RIGHTS can be timed on;
 * stock refuses the send and prints no figure.
 *
 * A ring's table enters the AF_UNIX GC graph when the ring is first sent,
 * so two figures show where the cost of a socket in a table went:
 *  - p2_reg_sockets_sent_64000: register and unregister of 64000 sockets
 *    in a ring already sent;
 *  - p2_first_send_64000: the first send of a ring that holds them.
 * And the ring half of P3's cycle collection:
 *  - p3_collect_ring_cycle_K, p3_gc_ring_cycle_K: K rings, each holding
 *    both ends of a socket pair whose queue holds the ring, K = 1k, 10k,
 *    until every socket is freed (the rings' asynchronous teardown
 *    included) and the collection alone (with the GC inspector).
 *
 * This program's name sorts after the other benchmarks', so it runs last
 * in the boot: every figure compared between the kernels is measured
 * before the patched kernel has done any work that stock cannot.
 */
#include <sys/resource.h>
#include "bench.h"

#define SOCKETS 64000

static int fds[SOCKETS];

/* median seconds of the first send of a ring holding n files, over reps */
static double first_send(int n, int reps)
{
	double *round = calloc(reps, sizeof(*round)), t;
	int r, sv[2];

	for (r = 0; r < reps; r++) {
		struct io_uring ring;
		int ret;

		if (io_uring_queue_init(2, &ring, 0) || io_uring_register_files(&ring, fds, n))
			ksft_exit_fail_msg("ring of %d: %s\n", n, strerror(errno));
		round[r] = now();
		ret = send_ring(&ring, sv);
		round[r] = now() - round[r];
		close(sv[0]);
		close(sv[1]);
		io_uring_queue_exit(&ring);
		if (ret)
			ksft_exit_fail_msg("send of a ring of %d: %s\n", n, strerror(-ret));
	}
	t = median(round, reps);
	free(round);
	return t;
}

int main(void)
{
	struct rlimit rl = { 131072, 131072 };
	double t;
	long socks;
	int i, k;

	ksft_print_header();
	ksft_set_plan(1);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));
	if (uscm_ring_send_expect()) {
		ksft_test_result_skip("this kernel refuses ring fds in SCM_RIGHTS\n");
		ksft_finished();
	}
	socks = uscm_unix_sockets();
	for (i = 0; i < SOCKETS; i += 2) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fds + i))
			ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
	}
	t = reg_unreg(fds, SOCKETS, 10, 1);
	if (t < 0)
		ksft_exit_fail_msg("the ring could not be sent\n");
	metric("p2_reg_sockets_sent_64000", t * 1e3, "ms");
	metric("p2_first_send_64000", first_send(SOCKETS, 10) * 1e3, "ms");
	for (i = 0; i < SOCKETS; i++)
		close(fds[i]);
	/* the rings above are torn down in kworkers: wait until their sockets
	 * are all released, so that no collection they queue meets the cycles
	 */
	uscm_kick_gc();
	if (uscm_wait_le(uscm_unix_sockets, socks) > socks)
		ksft_exit_fail_msg("the sent rings' sockets were not freed\n");
	for (k = 1000; k <= 10000; k *= 10)
		collect_metrics(k, 1);
	ksft_test_result_pass("sent-ring timings\n");
	ksft_finished();
}
