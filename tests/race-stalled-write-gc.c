// SPDX-License-Identifier: GPL-2.0
/*
 * F8, the CVE-2022-2602 lesson: a fixed-file write stalls on a pipe that
 * never drains while the ring's cycle is collected.  The GC may only drop
 * the reference to the ring; the ring's teardown cancels the write and only
 * then puts the table.  Run it once with the write armed on poll and once
 * parked in io-wq (IOSQE_ASYNC), which blocks inside pipe_write() on a
 * file the table alone holds, and once submitted by an SQPOLL thread.  Under KASAN any early put is a report.
 *
 * stock, refusing: the ring fd is refused; the ring then goes away on
 * close, cancelling the write the same way.
 * patched: the cycle is collected; the write ends cancelled, the pipe holds
 * exactly its prefill, and the ring's files are released.
 */
#include "lib/ring.h"

#define ROUNDS 10

static void stalled(unsigned int setup_flags, unsigned int sqe_flags, const char *name)
{
	long socks = uscm_unix_sockets();
	int i, bad = 0, freed = 0, short_read = 0;

	for (i = 0; i < ROUNDS; i++) {
		struct io_uring ring;
		struct io_uring_sqe *sqe;
		int sv[2], p[2], q[2], fill = 0, n;
		static char buf[65536];

		if (io_uring_queue_init(4, &ring, setup_flags) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) ||
		    pipe(p) || pipe(q))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		fcntl(p[1], F_SETFL, O_NONBLOCK);
		while ((n = write(p[1], buf, sizeof(buf))) > 0)
			fill += n;
		fcntl(p[1], F_SETFL, 0);
		if (io_uring_register_files(&ring, (int []){ sv[0], sv[1], p[1], q[1] }, 4))
			ksft_exit_fail_msg("register failed\n");
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_write(sqe, 2, "stalled", 7, 0);
		sqe->flags |= IOSQE_FIXED_FILE | sqe_flags;
		if (io_uring_submit(&ring) != 1)
			ksft_exit_fail_msg("submit failed\n");
		usleep(20000);	/* let it reach poll or pipe_write() */

		bad += uscm_send_fd(sv[0], ring.ring_fd) != uscm_ring_send_expect();
		close(sv[0]);
		close(sv[1]);
		close(p[1]);
		close(q[1]);
		io_uring_queue_exit(&ring);
		uscm_kick_gc();

		freed += uscm_wait_eof(q[0]);
		/* the ring is gone: the pipe holds its prefill and nothing else */
		for (n = 0; ; ) {
			int r = read(p[0], buf, sizeof(buf));

			if (r <= 0)
				break;
			n += r;
		}
		short_read += n != fill;
		close(p[0]);
	}
	ksft_test_result(!bad, "%s: sendmsg(ring fd) gives %s on %s\n", name,
			 uscm_err(uscm_ring_send_expect()), uscm_kernel_name());
	ksft_test_result(freed == ROUNDS, "%s: %d of %d rings torn down with a write stalled\n",
			 name, freed, ROUNDS);
	ksft_test_result(!short_read, "%s: pipes hold exactly their prefill (%d differ)\n",
			 name, short_read);
	i = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!i, "%s: AF_UNIX sockets back at baseline (%+d)\n", name, i);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(12);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	stalled(0, 0, "poll-armed");
	stalled(0, IOSQE_ASYNC, "io-wq");
	/* the CVE-2022-2602 reproducer's shape: SQPOLL submits the write */
	stalled(IORING_SETUP_SQPOLL, IOSQE_ASYNC, "sqpoll+io-wq");
	ksft_finished();
}
