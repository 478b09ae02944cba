// SPDX-License-Identifier: GPL-2.0
/*
 * The GC must not wait for rings' exit works (make bench of 2026-12-07:
 * bench-sent-rings alone hung in two boots of five).
 *
 * A ring's exit work waits, interruptibly, for the ring's creator to run
 * a task_work.  A sender of an AF_UNIX fd whose user has more than
 * UNIX_INFLIGHT_SANE_USER (2024) fds in flight waits, uninterruptibly,
 * for the GC work.  6.1.192 queues both on system_unbound_wq: once its 512
 * active items are exit works, a collection queued after them starts only
 * when their creator has run their task_works.  When the creator is the
 * sender, nothing moves again, nor does any other unbound work.  Upstream
 * 73eaa2b58349 ("io_uring: use private workqueue for exit work") gave
 * exit works their own workqueue; 6.1.192 lacks it (the series' patch 3).
 *
 * The same dependency, made safe to observe: a child sharing our fd table
 * creates 1024 rings and stops (SIGSTOP: its task_works wait).  We close
 * the rings, queue a collection with 2277 fds of ours in flight, and send
 * one more socket from a thread.  The send must return while the child is
 * still stopped; then the child goes on and every ring and socket is freed.
 *
 * stock: the send waits for the child (XFAIL); refusing, patched: it
 * returns.  Either way the child is continued, so nothing hangs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "lib/ring.h"

#define IN_FLIGHT_MSGS 9	/* 9 * 253 fds in flight > 2024 */
#define RINGS 1024		/* twice system_unbound_wq's max_active */

static int sv[2];
static volatile int sent, send_err;

static void *sender(void *arg)
{
	send_err = uscm_send_fd(sv[0], sv[0]);
	sent = 1;
	return NULL;
}

/* The child: opens the rings on fds first.., stops, then runs task_works. */
static int child(int first, int done)
{
	int i;
	char c;

	for (i = 0; i < RINGS; i++) {
		struct io_uring_params p = { 0 };
		int fd = io_uring_setup(1, &p);

		if (fd != first + i)
			return 1;
	}
	raise(SIGSTOP);
	/* the exit works wait for us: sleep interruptibly until told */
	while (read(done, &c, 1) < 0 && errno == EINTR)
		;
	return 0;
}

int main(void)
{
	struct rlimit rl = { 65536, 65536 };
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long socks, files, socks_left, files_left;
	int fds[253], kick, first, done[2], i, err, status, waited, early;
	pthread_t thr;
	pid_t pid;

	ksft_print_header();
	ksft_set_plan(1);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));

	socks = uscm_unix_sockets();
	files = uscm_file_nr();
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || pipe(done))
		ksft_exit_fail_msg("socketpair, pipe: %s\n", strerror(errno));
	for (i = 0; i < 253; i++)
		fds[i] = sv[0];
	for (i = 0; i < IN_FLIGHT_MSGS; i++) {
		err = uscm_send_fds(sv[0], fds, 253);
		if (err)
			ksft_exit_fail_msg("send %d: %s\n", i, strerror(-err));
	}
	kick = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (kick < 0)
		ksft_exit_fail_msg("socket: %s\n", strerror(errno));
	first = kick + 1;

	/* fork, but with our fd table: its rings are ours to close */
	pid = syscall(SYS_clone, CLONE_FILES | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0)
		ksft_exit_fail_msg("clone: %s\n", strerror(errno));
	if (!pid)
		_exit(child(first, done[0]));
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
		ksft_exit_fail_msg("the child did not open its rings\n");

	/* every exit work waits for the stopped child */
	if (close_range(first, first + RINGS - 1, 0))
		ksft_exit_fail_msg("close_range: %s\n", strerror(errno));
	/* queues a collection: fds are in flight */
	close(kick);
	/* with 2277 fds of ours in flight, the send waits for it */
	pthread_create(&thr, NULL, sender, NULL);
	for (waited = 0; !sent && waited < 500 * uscm_slow(); waited++)
		nanosleep(&ts, NULL);
	early = sent;
	ksft_print_msg("send %s after %d ms with the ring creator stopped\n",
		       early ? "returned" : "still waiting", waited * 10);

	kill(pid, SIGCONT);
	pthread_join(thr, NULL);
	close(done[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		ksft_exit_fail_msg("child: status %#x\n", status);
	close(done[0]);
	close(sv[0]);
	close(sv[1]);
	socks_left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	files_left = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files;
	ksft_print_msg("send: %s; %ld sockets and %ld files (slack %d) left\n",
		       uscm_err(send_err), socks_left, files_left, USCM_FILE_NR_SLACK);
	if (send_err || socks_left > 0 || files_left > USCM_FILE_NR_SLACK)
		ksft_test_result_fail("send, rings and sockets freed\n");
	else if (!early && uscm_kernel() == KERNEL_STOCK)
		ksft_test_result_xfail("the GC waits for %d exiting rings' creator on stock\n",
				       RINGS);
	else
		ksft_test_result(early, "the GC does not wait for %d exiting rings' creator\n",
				 RINGS);
	ksft_finished();
}
