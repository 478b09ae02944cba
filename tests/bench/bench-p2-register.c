// SPDX-License-Identifier: GPL-2.0
/*
 * P2, registration: register and unregister N regular files (dups of one
 * tmpfs file) for N = 1000, 64000, 1000000, and N AF_UNIX sockets for
 * 1000 and 64000, each the median of 200, 10 or 5 rounds (1k, 64k, 1M);
 * and one-slot FILES_UPDATE in a 64k table.  Under the instruction clock
 * (icount_clock()), one round of each and a tenth of the updates.  Rings
 * are never sent here: what a sent ring's table costs is bench-sent-rings'.
 */
#include <sys/resource.h>
#include "bench.h"

static int *fds;

int main(void)
{
	struct rlimit rl = { 1048576, 1048576 };
	int n, i, base, reps, updates = icount_clock() ? 2000 : 20000;
	char name[64];

	ksft_print_header();
	ksft_set_plan(1);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));
	fds = calloc(1 << 20, sizeof(int));
	/* 1M = 1,000,000 files: the fd table tops out at fs.nr_open, 1 << 20 */
	base = open("/tmp/bench-p2", O_RDWR | O_CREAT, 0600);
	for (i = 0; i < 1000000; i++)
		if ((fds[i] = dup(base)) < 0)
			ksft_exit_fail_msg("dup %d: %s\n", i, strerror(errno));
	for (n = 1000; n <= 1000000; n = n == 1000 ? 64000 : n == 64000 ? 1000000 : n + 1) {
		reps = icount_clock() ? 1 : n >= 1000000 ? 5 : n >= 64000 ? 10 : 200;
		snprintf(name, sizeof(name), "p2_reg_files_%d", n);
		metric(name, reg_unreg(fds, n, reps, 0) * 1e3, "ms");
	}
	for (i = 0; i < 1000000; i++)
		close(fds[i]);
	for (i = 0; i < 64000; i += 2) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
		fds[i] = sv[0];
		fds[i + 1] = sv[1];
	}
	for (n = 1000; n <= 64000; n *= 64) {
		snprintf(name, sizeof(name), "p2_reg_sockets_%d", n);
		reps = icount_clock() ? 1 : n >= 64000 ? 10 : 200;
		metric(name, reg_unreg(fds, n, reps, 0) * 1e3, "ms");
	}
	{
		struct io_uring ring;
		double t0;
		int fd = fds[0];

		io_uring_queue_init(2, &ring, 0);
		io_uring_register_files_sparse(&ring, 65536);
		t0 = now();
		for (i = 0; i < updates; i++)
			io_uring_register_files_update(&ring, 40000, &fd, 1);
		metric("p2_update_one_slot_64k", (now() - t0) / updates * 1e6, "us");
		io_uring_queue_exit(&ring);
	}
	ksft_test_result_pass("registration timings\n");
	ksft_finished();
}
