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

/* The host's bench script reads these: "# metric NAME VALUE UNIT". */
static inline void metric(const char *name, double value, const char *unit)
{
	printf("# metric %s %.6g %s\n", name, value, unit);
}

#endif
