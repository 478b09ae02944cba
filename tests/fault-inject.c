// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection on the registration, update and sendmsg paths: failslab
 * and fail_page_alloc, driven per task through /proc/thread-self/fail-nth
 * so that the 1st, 2nd, ... allocation of one syscall fails, until the
 * syscall gets through with none failed.  Every injected failure must
 * return an error cleanly (ENOMEM; EFAULT for a failed copy; ENOBUFS for
 * sendmsg's skb; a partial count for an update), the ring
 * and sockets must still work or go away, and nothing may leak.
 *
 * Every kernel: the same.  On patched, the sendmsg case queues a ring fd,
 * so each round also builds a cycle that must be collected.  A ring's table
 * is linked into the AF_UNIX GC graph only once the ring has been sent, so
 * registration and update run twice: on a ring never sent, and on a ring
 * already sent (queued on a spare socket pair; the send is refused with
 * EINVAL on stock and refusing, where both rounds are the same).
 */
#include "lib/ring.h"

#define MAX_NTH 400

static int write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, v, strlen(v)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static int fail_nth_fd = -1;

static void arm(int nth)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", nth);
	if (pwrite(fail_nth_fd, buf, strlen(buf), 0) < 0)
		ksft_exit_fail_msg("fail-nth: %s\n", strerror(errno));
}

/* 1 if the armed fault was injected (fail-nth reads 0 once it fired) */
static int disarm(void)
{
	char buf[16] = "";
	int left;

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) < 0)
		return 0;
	left = atoi(buf);
	arm(0);
	return left == 0;
}

enum op { OP_REGISTER, OP_UPDATE, OP_SENDMSG };

static int run_op(enum op op, struct io_uring *ring, int *sv, int probe_w)
{
	int fds[3] = { sv[0], sv[1], probe_w }, ret;

	switch (op) {
	case OP_REGISTER:
		return io_uring_register_files(ring, fds, 3);
	case OP_UPDATE:
		/* a partial update (1 or 2 of 3) is a clean outcome too */
		ret = io_uring_register_files_update(ring, 0, fds, 3);
		return ret >= 0 ? 0 : ret;
	default:
		return uscm_send_fd(sv[0], ring->ring_fd);
	}
}

static void inject(enum op op, int sent, const char *name)
{
	int nth, injected = 0, unclean = 0, leaks = 0, rounds = 0, done = 0;

	for (nth = 1; nth <= MAX_NTH && !done; nth++) {
		long socks = uscm_unix_sockets();
		struct io_uring ring;
		int sv[2], q[2], p[2], ret, fired, probe_ok;

		if (io_uring_queue_init(4, &ring, 0) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, q) || pipe(p))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		if (sent) {
			ret = uscm_send_fd(q[0], ring.ring_fd);
			if (ret != uscm_ring_send_expect())
				ksft_exit_fail_msg("%s: sending the ring: %s, want %s\n", name,
						   uscm_err(ret), uscm_err(uscm_ring_send_expect()));
		}
		if (op == OP_UPDATE && io_uring_register_files_sparse(&ring, 4))
			ksft_exit_fail_msg("sparse register failed\n");
		if (op == OP_SENDMSG && io_uring_register_files(&ring, (int []){ sv[0], sv[1], p[1] }, 3))
			ksft_exit_fail_msg("register failed\n");

		arm(nth);
		ret = run_op(op, &ring, sv, p[1]);
		fired = disarm();
		rounds++;
		if (!fired) {
			done = 1;	/* no allocation left to fail */
			if (op != OP_SENDMSG && ret)
				unclean++;
		} else {
			injected++;
			/* sendmsg(2) reports a failed skb allocation as ENOBUFS */
			if (ret && ret != -ENOMEM && ret != -EFAULT &&
			    !(op == OP_SENDMSG && ret == -ENOBUFS) &&
			    !(op == OP_SENDMSG && ret == -EINVAL && uscm_ring_send_expect())) {
				ksft_print_msg("%s: fault %d returned %s\n", name, nth, uscm_err(ret));
				unclean++;
			}
		}
		close(sv[0]);
		close(sv[1]);
		close(q[0]);
		close(q[1]);
		close(p[1]);
		io_uring_queue_exit(&ring);
		uscm_kick_gc();
		/* if the probe got into the table, the ring's teardown releases it */
		probe_ok = uscm_wait_eof(p[0]);
		if (!probe_ok || uscm_wait_le(uscm_unix_sockets, socks) != socks)
			leaks++;
	}
	ksft_test_result(done && !unclean && !leaks,
			 "%s: %d faults injected in %d rounds, %d unclean returns, %d leaks\n",
			 name, injected, rounds, unclean, leaks);
}

int main(void)
{
	int i;
	static const char * const knobs[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};

	ksft_print_header();
	ksft_set_plan(5);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	for (i = 0; i < 5; i++)
		if (write_str(knobs[i][0], knobs[i][1]))
			ksft_exit_fail_msg("%s: %s\n", knobs[i][0], strerror(errno));
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0)
		ksft_exit_fail_msg("fail-nth: %s\n", strerror(errno));
	inject(OP_REGISTER, 0, "IORING_REGISTER_FILES");
	inject(OP_UPDATE, 0, "IORING_REGISTER_FILES_UPDATE");
	inject(OP_REGISTER, 1, "IORING_REGISTER_FILES, ring sent");
	inject(OP_UPDATE, 1, "IORING_REGISTER_FILES_UPDATE, ring sent");
	inject(OP_SENDMSG, 0, "sendmsg(ring fd)");
	ksft_finished();
}
