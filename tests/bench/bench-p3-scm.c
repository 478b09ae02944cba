// SPDX-License-Identifier: GPL-2.0
/*
 * P3, the GC's cost on traffic that cannot form a cycle: SCM_RIGHTS
 * send/recv of one AF_UNIX fd over a socket pair, ops/s, the median of
 * ROUNDS rounds (one under an instruction clock).  Every send adds the fd
 * to the GC's graph and every receive takes it out; nothing else is in
 * flight, so no pass may run.
 */
#include "bench.h"

#define ROUNDS 5
#define OPS 20000

int main(void)
{
	double rate[ROUNDS];
	int rounds = icount_clock() ? 1 : ROUNDS;
	int sv[2], x[2], i, r;

	ksft_print_header();
	ksft_set_plan(1);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || socketpair(AF_UNIX, SOCK_DGRAM, 0, x))
		ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
	for (r = 0; r < rounds; r++) {
		double t0 = now();

		for (i = 0; i < OPS; i++) {
			int fd;

			if (uscm_send_fd(sv[0], x[0]))
				ksft_exit_fail_msg("send: %s\n", strerror(errno));
			fd = uscm_recv_fd(sv[1], 0);
			if (fd < 0)
				ksft_exit_fail_msg("recv: %s\n", strerror(-fd));
			close(fd);
		}
		rate[r] = OPS / (now() - t0);
	}
	metric("p3_scm_acyclic_rate", median(rate, rounds), "ops/s");
	ksft_test_result_pass("send/recv of an AF_UNIX fd, median of %d rounds of %d\n",
			      rounds, OPS);
	ksft_finished();
}
