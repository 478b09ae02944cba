#!/bin/bash
# tsc-khz.sh: print this host's TSC rate in kHz, measured against
# CLOCK_MONOTONIC_RAW over 200 ms.  Under TCG a guest's TSC is the host's
# (QEMU reads it with rdtsc), so tsc_early_khz=<this> tsc=reliable gives
# the guest a nanosecond clock instead of refined-jiffies, which ticks
# every 4 ms and loses ticks while the guest is busy.
. "$(dirname "$0")/lib.sh"

bin=$WORK/tsc-khz
# built once, and again whenever this script (its source) changes
if [ ! -x "$bin" ] || [ "$0" -nt "$bin" ]; then
	mkdir -p "$WORK"
	gcc -O2 -x c -o "$bin" - <<'C' || die "could not build $bin"
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double raw(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	struct timespec nap = { 0, 200000000 };
	unsigned long long c0 = __rdtsc();
	double t0 = raw();

	nanosleep(&nap, NULL);
	printf("%.0f\n", (__rdtsc() - c0) / (raw() - t0) / 1e3);
	return 0;
}
C
fi
"$bin"
