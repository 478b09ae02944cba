/* SPDX-License-Identifier: GPL-2.0 */
/* Benchmark helpers: a monotonic clock and one "metric" line per figure. */
#ifndef USCM_BENCH_H
#define USCM_BENCH_H

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

#endif
