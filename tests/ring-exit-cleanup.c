// SPDX-License-Identifier: GPL-2.0
/*
 * Exit cleanup: a child builds 500 live cycles (250 socket-pair cycles and
 * 250 ring cycles, each ring holding a pipe probe) and then exits, or is
 * SIGKILLed.  Its fds close at exit, the cycles become garbage, and the
 * GC must return every ring, socket and file.  Then the same with SQPOLL
 * rings that have a fixed-file write in flight (SIGKILL), and with rings
 * whose fds sit only in a queue of ours: kept until we close it.
 *
 * stock, refusing: ring fds are refused with EINVAL, so the 250 rings hold
 * their pair without a cycle; everything still comes back.
 * patched: all 500 cycles are collected.
 */
#include <signal.h>
#include <sys/resource.h>
#include "lib/ring.h"

#define PAIRS 250
#define RINGS 250

enum mode {
	LIVE,		/* live cycles, exit or SIGKILL */
	SQPOLL_IO,	/* SQPOLL rings with a fixed-file write in flight */
	FOREIGN,	/* ring fds only in a queue the parent holds */
};

static int child(enum mode mode, int *probe_w, int ready, int foreign)
{
	int i, bad = 0;

	for (i = 0; i < PAIRS && mode == LIVE; i++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || uscm_send_fd(sv[0], sv[0]) ||
		    uscm_send_fd(sv[1], sv[1]))
			return 2;
	}
	for (i = 0; i < RINGS; i++) {
		struct io_uring ring;
		int sv[2], full[2];

		if (io_uring_queue_init(2, &ring, mode == SQPOLL_IO ? IORING_SETUP_SQPOLL : 0) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || pipe(full) ||
		    io_uring_register_files(&ring, (int []){ sv[0], sv[1], probe_w[i], full[1] }, 4))
			return 3;
		close(probe_w[i]);
		if (mode == SQPOLL_IO) {
			static char buf[65536];
			struct io_uring_sqe *sqe;

			fcntl(full[1], F_SETFL, O_NONBLOCK);
			while (write(full[1], buf, sizeof(buf)) > 0)
				;
			fcntl(full[1], F_SETFL, 0);
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_write(sqe, 3, "stalled", 7, 0);
			sqe->flags |= IOSQE_FIXED_FILE | IOSQE_ASYNC;
			io_uring_submit(&ring);
		}
		if (mode == FOREIGN)
			bad += uscm_send_fd(foreign, ring.ring_fd) != uscm_ring_send_expect();
		else
			bad += uscm_send_fd(sv[0], ring.ring_fd) != uscm_ring_send_expect();
	}
	if (write(ready, &bad, sizeof(bad)) != sizeof(bad))
		return 4;
	return 0;
}

static void run(enum mode mode, int kill_it, const char *name)
{
	long socks = uscm_unix_sockets(), files = uscm_file_nr(), left;
	int probe_r[RINGS], probe_w[RINGS], ready[2], foreign[2], i, bad = -1, status, freed;
	pid_t pid;

	for (i = 0; i < RINGS; i++) {
		int p[2];

		if (pipe(p))
			ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
		probe_r[i] = p[0];
		probe_w[i] = p[1];
	}
	if (pipe(ready) || socketpair(AF_UNIX, SOCK_DGRAM, 0, foreign))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (!pid) {
		close(ready[0]);
		if (child(mode, probe_w, ready[1], foreign[0]))
			_exit(1);
		if (kill_it)
			pause();
		_exit(0);
	}
	for (i = 0; i < RINGS; i++)
		close(probe_w[i]);
	close(ready[1]);
	if (read(ready[0], &bad, sizeof(bad)) != sizeof(bad))
		bad = -1;
	close(ready[0]);
	if (kill_it)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ksft_test_result(bad == 0, "%s: child built its rings (sendmsg(ring fd) gives %s)\n",
			 name, uscm_err(uscm_ring_send_expect()));

	if (mode == FOREIGN) {
		/* reachable from our queue: kept through collections */
		int kept = 0, j;

		uscm_kick_gc();
		usleep(500000);
		for (j = 0; j < RINGS; j++) {
			fcntl(probe_r[j], F_SETFL, O_NONBLOCK);
			kept += !uscm_pipe_eof(probe_r[j]);
		}
		if (uscm_ring_send_expect())
			ksft_test_result_skip("%s: ring fds cannot be queued on this kernel\n", name);
		else
			ksft_test_result(kept == RINGS, "%s: %d of %d rings kept while queued here\n",
					 name, kept, RINGS);
	}
	close(foreign[0]);
	close(foreign[1]);
	uscm_kick_gc();
	freed = uscm_wait_eof_all(probe_r, RINGS);
	ksft_test_result(freed == RINGS, "%s: %d of %d rings torn down\n", name, freed, RINGS);
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!left, "%s: AF_UNIX sockets back at baseline (%+ld)\n", name, left);
	left = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files;
	ksft_test_result(left <= USCM_FILE_NR_SLACK, "%s: open files back at baseline (%+ld)\n",
			 name, left);
	if (!uscm_have_inspector()) {
		ksft_test_result_skip("%s: no GC inspector on this kernel\n", name);
	} else {
		long inflight = uscm_gc_stat("inflight"), vertices = uscm_gc_stat("vertices");
		long rings = uscm_gc_stat("rings");

		ksft_test_result(!inflight && !vertices && !rings,
				 "%s: inspector: inflight %ld, vertices %ld, rings %ld (want 0)\n",
				 name, inflight, vertices, rings);
	}
}

int main(void)
{
	struct rlimit rl = { 8192, 8192 };

	ksft_print_header();
	ksft_set_plan(21);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("setrlimit: %s\n", strerror(errno));
	run(LIVE, 0, "exit");
	run(LIVE, 1, "SIGKILL");
	run(SQPOLL_IO, 1, "SIGKILL, SQPOLL, write in flight");
	run(FOREIGN, 0, "exit, ring fds in our queue");
	ksft_finished();
}
