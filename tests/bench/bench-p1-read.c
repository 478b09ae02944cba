// SPDX-License-Identifier: GPL-2.0
/*
 * P1, the hot path: 4 KiB reads from a tmpfs file at queue depth 32, with
 * IOSQE_FIXED_FILE and with a plain fd, for a fixed number of reads.
 * Fixed and plain runs alternate, ROUNDS of each, so that a slow spell of
 * the host hits both; each figure is the median over the rounds, the gain
 * the median of the per-round fixed/plain ratios.  Under an instruction
 * clock (icount_clock()), one round of a quarter of the reads.
 */
#include "bench.h"

#define QD 32
#define READS (64 * 1024)
#define FILE_SIZE (16 << 20)
#define ROUNDS 3

static double run(struct io_uring *ring, int fd, int fixed, int reads)
{
	static char bufs[QD][4096];
	struct io_uring_cqe *cqe;
	unsigned long off = 0;
	int submitted = 0, done = 0;
	double t0 = now();

	while (done < reads) {
		while (submitted - done < QD && submitted < reads) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_read(sqe, fixed ? 0 : fd, bufs[submitted % QD], 4096, off);
			if (fixed)
				sqe->flags |= IOSQE_FIXED_FILE;
			off = (off + 4096) % FILE_SIZE;
			submitted++;
		}
		io_uring_submit_and_wait(ring, 1);
		while (io_uring_peek_cqe(ring, &cqe) == 0) {
			if (cqe->res != 4096)
				ksft_exit_fail_msg("read: %d\n", cqe->res);
			io_uring_cqe_seen(ring, cqe);
			done++;
		}
	}
	return reads / (now() - t0);
}

int main(void)
{
	struct io_uring ring;
	int fd = open("/tmp/bench-p1", O_RDWR | O_CREAT | O_TRUNC, 0600);
	double fixed[ROUNDS], plain[ROUNDS], gain[ROUNDS];
	int rounds = icount_clock() ? 1 : ROUNDS;
	int reads = icount_clock() ? READS / 4 : READS;
	int i;

	ksft_print_header();
	ksft_set_plan(1);
	if (fd < 0 || ftruncate(fd, FILE_SIZE) || io_uring_queue_init(QD, &ring, 0) ||
	    io_uring_register_files(&ring, &fd, 1))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	run(&ring, fd, 1, reads);	/* warm the page cache */
	for (i = 0; i < rounds; i++) {
		fixed[i] = run(&ring, fd, 1, reads);
		plain[i] = run(&ring, fd, 0, reads);
		gain[i] = fixed[i] / plain[i];
	}
	metric("p1_fixed_iops", median(fixed, rounds), "IOPS");
	metric("p1_plain_iops", median(plain, rounds), "IOPS");
	metric("p1_fixed_gain", median(gain, rounds), "x");
	ksft_test_result_pass("4 KiB reads at QD %d, tmpfs, median of %d rounds of %d\n",
			      QD, rounds, reads);
	unlink("/tmp/bench-p1");
	ksft_finished();
}
