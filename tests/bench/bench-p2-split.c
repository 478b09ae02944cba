// SPDX-License-Identifier: GPL-2.0
/*
 * P2 apart: register and unregister of 1M regular files timed one by one,
 * the median of ROUNDS rounds.  Not in make bench's boots; run it under
 * the instruction clock to read what each call costs per file:
 *   backport test --no-build --icount [--stock] --only bench-p2-split
 * Unregister waits for the table's resource node to die; register waits
 * for nothing, so its figure is work alone.
 */
#include <sys/resource.h>
#include "bench.h"

#define FILES 1000000
#define ROUNDS 5

int main(void)
{
	struct rlimit rl = { 1048576, 1048576 };
	double reg[ROUNDS], unreg[ROUNDS];
	struct io_uring ring;
	int *fds, i, fd;

	ksft_print_header();
	ksft_set_plan(1);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));
	fds = calloc(FILES, sizeof(*fds));
	fd = open("/tmp/bench-p2-split", O_RDWR | O_CREAT, 0600);
	if (!fds || fd < 0 || io_uring_queue_init(2, &ring, 0))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	/* one file in every slot: the table's work, not the fd table's */
	for (i = 0; i < FILES; i++)
		fds[i] = fd;
	for (i = 0; i < ROUNDS; i++) {
		double t0 = now(), t1;

		if (io_uring_register_files(&ring, fds, FILES))
			ksft_exit_fail_msg("register: %s\n", strerror(errno));
		t1 = now();
		if (io_uring_unregister_files(&ring))
			ksft_exit_fail_msg("unregister: %s\n", strerror(errno));
		reg[i] = t1 - t0;
		unreg[i] = now() - t1;
	}
	metric("p2_register_files_1000000", median(reg, ROUNDS) * 1e3, "ms");
	metric("p2_unregister_files_1000000", median(unreg, ROUNDS) * 1e3, "ms");
	ksft_test_result_pass("register and unregister of %d files, median of %d rounds\n",
			      FILES, ROUNDS);
	io_uring_queue_exit(&ring);
	unlink("/tmp/bench-p2-split");
	ksft_finished();
}
