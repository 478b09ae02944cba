/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmark helpers: a monotonic clock, one "metric" line per figure, and
 * the two workloads more than one program times: register + unregister of
 * a file table, and the collection of k closed cycles.
 */
#ifndef USCM_BENCH_H
#define USCM_BENCH_H

#include <sched.h>
#include "../lib/ring.h"

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Under QEMU -icount (boottest.icount) the clock counts the guest's
 * instructions: a figure is the same in every round and every boot, so
 * one round of a quarter of the work gives it exactly.
 */
static inline int icount_clock(void)
{
	return getenv("USCM_BENCH_ICOUNT") != NULL;
}

/* Short figures are taken over rounds: the host's noise hits some rounds. */
static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* The host's bench script reads these: "# metric NAME VALUE UNIT". */
static inline void metric(const char *name, double value, const char *unit)
{
	printf("# metric %s %.6g %s\n", name, value, unit);
}

/* the ring is queued on a spare socket pair: 0 sent, -EINVAL refused */
static inline int send_ring(struct io_uring *ring, int *sv)
{
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
	return uscm_send_fd(sv[0], ring->ring_fd);
}

/*
 * Median seconds of one register + unregister of fds[0..n), over reps
 * rounds; < 0 if sent is refused.  The first round also warms the slabs,
 * and the host's noise hits single rounds: the median is neither.
 */
static inline double reg_unreg(int *fds, int n, int reps, int sent)
{
	double *round = calloc(reps, sizeof(*round));
	struct io_uring ring;
	int r, sv[2] = { -1, -1 };
	double t = -1;

	if (io_uring_queue_init(2, &ring, 0))
		ksft_exit_fail_msg("ring: %s\n", strerror(errno));
	if (sent && send_ring(&ring, sv))
		goto out;
	for (r = 0; r < reps; r++) {
		round[r] = now();
		if (io_uring_register_files(&ring, fds, n))
			ksft_exit_fail_msg("register %d: %s\n", n, strerror(errno));
		io_uring_unregister_files(&ring);
		round[r] = now() - round[r];
	}
	t = median(round, reps);
out:
	free(round);
	close(sv[0]);
	close(sv[1]);
	io_uring_queue_exit(&ring);
	return t;
}

/*
 * The GC pass alone: the inspector's collect returns when it is done.  The
 * caller runs SCHED_FIFO meanwhile: the pass sets off the teardown of every
 * dead ring in kworkers, and a normal task woken among thousands of them
 * would be timed queueing for a CPU, not the GC.
 */
static inline double collect_pass(void)
{
	struct sched_param fifo = { .sched_priority = 1 }, normal = { 0 };
	int fd = open(USCM_INSPECTOR "collect", O_WRONLY);
	double t0;

	if (fd < 0)
		ksft_exit_fail_msg("inspector collect: %s\n", strerror(errno));
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		ksft_exit_fail_msg("SCHED_FIFO: %s\n", strerror(errno));
	t0 = now();
	if (write(fd, "1", 1) != 1)
		ksft_exit_fail_msg("inspector collect: %s\n", strerror(errno));
	t0 = now() - t0;
	if (sched_setscheduler(0, SCHED_OTHER, &normal))
		ksft_exit_fail_msg("SCHED_OTHER: %s\n", strerror(errno));
	close(fd);
	return t0;
}

/*
 * Build k cycles (socket pairs, or rings holding both ends of a pair that
 * holds the ring), close them all, and return the seconds from the kick to
 * the socket count's return; *pass gets the collection's own time (with
 * the inspector; 0 without it, where the kick is asynchronous).  The
 * caller starts it quiet: no earlier teardown still releasing sockets
 * (each release queues a collection, which would find these cycles).
 */
static inline double collect(int k, int rings, double *pass)
{
	struct io_uring *ring = rings ? calloc(k, sizeof(*ring)) : NULL;
	long socks = uscm_unix_sockets(), sccs = 0;
	int i, *keep = calloc(k, sizeof(int));
	double t0;

	/* built alive (the ring, or one end, kept open), so that no collection
	 * during the build finds them; then all closed at once and timed
	 */
	for (i = 0; i < k; i++) {
		int sv[2];

		socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
		if (rings) {
			io_uring_queue_init(2, &ring[i], 0);
			io_uring_register_files(&ring[i], sv, 2);
			uscm_send_fd(sv[0], ring[i].ring_fd);
			close(sv[0]);
		} else {
			uscm_send_fd(sv[0], sv[0]);
			uscm_send_fd(sv[1], sv[1]);
			keep[i] = sv[0];
		}
		close(sv[1]);
	}
	/* a collection the build set off (past UNIX_INFLIGHT_TRIGGER_GC) must
	 * not run on into the closes: the timed pass collects all k cycles
	 */
	if (uscm_have_inspector()) {
		collect_pass();
		sccs = uscm_gc_stat("collected_sccs");
	}
	for (i = 0; i < k; i++) {
		if (rings)
			io_uring_queue_exit(&ring[i]);
		else
			close(keep[i]);
	}
	free(keep);
	free(ring);
	*pass = 0;
	t0 = now();
	if (uscm_have_inspector())
		*pass = collect_pass();
	else
		uscm_kick_gc();
	if (uscm_have_inspector() && uscm_gc_stat("collected_sccs") - sccs != k)
		ksft_exit_fail_msg("the timed pass collected %ld of %d %s cycles\n",
				   uscm_gc_stat("collected_sccs") - sccs, k,
				   rings ? "ring" : "pair");
	if (uscm_wait_le(uscm_unix_sockets, socks) > socks)
		ksft_exit_fail_msg("%d %s cycles not collected\n", k, rings ? "ring" : "pair");
	return now() - t0;
}

/* k cycles of one kind: metrics p3_collect_<kind>_cycle_<k> and p3_gc_... */
static inline void collect_metrics(int k, int rings)
{
	const char *kind = rings ? "ring" : "pair";
	double pass, freed = collect(k, rings, &pass);
	char name[64];

	snprintf(name, sizeof(name), "p3_collect_%s_cycle_%d", kind, k);
	metric(name, freed / k * 1e6, "us/cycle");
	if (!uscm_have_inspector())
		return;
	/* the GC's own work per cycle, on the kernel with the inspector */
	snprintf(name, sizeof(name), "p3_gc_%s_cycle_%d", kind, k);
	metric(name, pass / k * 1e6, "us/cycle");
}

#endif
