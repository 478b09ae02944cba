// SPDX-License-Identifier: GPL-2.0
/*
 * The article's ring cycle (liburing's test/ring-leak.c): register both
 * ends of a socket pair in a ring, queue the ring fd in the pair, close
 * everything.
 *
 * stock, refusing: the ring fd is refused with EINVAL, nothing leaks.
 * patched: the send succeeds, and the GC collects every ring and socket;
 * the GC inspector, when loaded, counts exactly one collected ring each.
 */
#include "lib/ring.h"

#define RINGS 50

static void ring_pair_cycle(int type, const char *name)
{
	long socks = uscm_unix_sockets(), rings0 = uscm_gc_stat("collected_rings");
	int probes[RINGS], i, err = 0, bad = 0;

	for (i = 0; i < RINGS; i++) {
		struct io_uring ring;
		int sv[2], p[2], fds[3];

		if (io_uring_queue_init(4, &ring, 0) || socketpair(AF_UNIX, type, 0, sv) ||
		    pipe(p))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		fds[0] = sv[0];
		fds[1] = sv[1];
		fds[2] = p[1];
		err = io_uring_register_files(&ring, fds, 3);
		if (err)
			ksft_exit_fail_msg("register: %s\n", uscm_err(err));
		err = uscm_send_fd(sv[0], ring.ring_fd);
		if (err != uscm_ring_send_expect())
			bad++;
		close(sv[0]);
		close(sv[1]);
		close(p[1]);
		io_uring_queue_exit(&ring);
		probes[i] = p[0];
	}
	uscm_expect_collected(name, bad, probes, RINGS, socks);
	if (!uscm_have_inspector()) {
		ksft_test_result_skip("%s: no GC inspector on this kernel\n", name);
	} else {
		long want = uscm_kernel() == KERNEL_PATCHED ? RINGS : 0;
		long got = uscm_gc_stat("collected_rings") - rings0;

		ksft_test_result(got == want, "%s: inspector: collected_rings rose by %ld (want %ld)\n",
				 name, got, want);
	}
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(8);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	ring_pair_cycle(SOCK_DGRAM, "dgram");
	ring_pair_cycle(SOCK_STREAM, "stream");
	ksft_finished();
}
