// SPDX-License-Identifier: GPL-2.0
/*
 * P3, the GC (its cost on acyclic traffic is bench-p3-scm):
 *  - one GC pass over a live cyclic graph of V vertices, V = 1k, 10k,
 *    100k (the sizes), and 20k, 50k, which show where the graph
 *    outgrows the host's caches and how the pass grows past that;
 *  - time to collect K socket-pair cycles, K = 1k, 10k, per cycle, from
 *    one build each: until every socket is freed, and, with the GC
 *    inspector, the collection alone (its synchronous "collect").
 *    K ring cycles are timed the same way by bench-sent-rings, which
 *    runs after this program.
 *    The pass is timed from stock's own interface: with this user's
 *    in-flight count above UNIX_INFLIGHT_SANE_USER, a sendmsg carrying an
 *    AF_UNIX fd waits for the running collection (wait_for_unix_gc()).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "bench.h"

static const int graph_sizes[] = { 1000, 10000, 20000, 50000, 100000 };

/*
 * Build v/2 live pair cycles (each end queued at the other, one end kept)
 * in children of distinct uids, each under UNIX_INFLIGHT_SANE_USER, so
 * the build itself is not throttled by wait_for_unix_gc().
 */
#define PER_CHILD 1000

/* the parent reads one byte per builder: 'x' built, 'e' failed */
static void builder_failed(int ready, const char *what)
{
	printf("# builder: %s: %s\n", what, strerror(errno));
	if (write(ready, "e", 1) != 1)
		printf("# builder: cannot report: %s\n", strerror(errno));
	_exit(1);
}

static pid_t build_live(int pairs, int idx, int ready)
{
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	/* a failed bench leaves no builder holding its sockets */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		builder_failed(ready, "PR_SET_PDEATHSIG");
	if (setuid(20000 + idx))
		builder_failed(ready, "setuid");
	for (i = 0; i < pairs; i++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			builder_failed(ready, "socketpair");
		uscm_send_fd(sv[0], sv[0]);
		uscm_send_fd(sv[1], sv[1]);
		close(sv[1]);
	}
	if (write(ready, "x", 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

static double gc_pass(int v)
{
	int hold[2], sv[2], i, r, fd, ready[2], children = 0;
	pid_t pids[256];
	double best = 1e9;
	char c;

	if (pipe(ready))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	for (i = 0; i < v / 2; i += PER_CHILD)
		pids[children] = build_live(PER_CHILD, children, ready[1]), children++;
	for (i = 0; i < children; i++)
		if (read(ready[0], &c, 1) != 1 || c != 'x')
			ksft_exit_fail_msg("a builder of %d vertices failed\n", v);
	/* push this user past UNIX_INFLIGHT_SANE_USER (2024) with live fds */
	socketpair(AF_UNIX, SOCK_DGRAM, 0, hold);
	for (i = 0; i < 9; i++) {
		int fds[253], j;

		for (j = 0; j < 253; j++)
			fds[j] = hold[0];
		if (uscm_send_fds(hold[1], fds, 253))
			ksft_exit_fail_msg("hold: %s\n", strerror(errno));
	}
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	/* the guest clock ticks coarsely under TCG: time 20 passes at once */
	for (r = 0; r < 3; r++) {
		double t0 = now();
		int p;

		for (p = 0; p < 20; p++) {
			uscm_kick_gc();
			uscm_send_fd(sv[0], sv[0]);	/* waits for the pass */
			fd = uscm_recv_fd(sv[1], 0);
			close(fd);
		}
		if ((now() - t0) / 20 < best)
			best = (now() - t0) / 20;
	}
	close(sv[0]);
	close(sv[1]);
	close(hold[0]);
	close(hold[1]);
	for (i = 0; i < children; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	close(ready[0]);
	close(ready[1]);
	uscm_kick_gc();
	uscm_wait_le(uscm_unix_sockets, 0);
	return best;
}

int main(void)
{
	struct rlimit rl = { 131072, 131072 };
	char name[64];
	unsigned int i;
	int k;

	ksft_print_header();
	ksft_set_plan(1);
	setrlimit(RLIMIT_NOFILE, &rl);
	for (i = 0; i < ARRAY_SIZE(graph_sizes); i++) {
		snprintf(name, sizeof(name), "p3_gc_pass_%d", graph_sizes[i]);
		metric(name, gc_pass(graph_sizes[i]) * 1e3, "ms");
	}
	for (k = 1000; k <= 10000; k *= 10)
		collect_metrics(k, 0);
	ksft_test_result_pass("GC timings\n");
	ksft_finished();
}
