// SPDX-License-Identifier: GPL-2.0
/*
 * The article's first cycle: a socket pair with each end queued in the
 * other, then both closed.  Expected on every kernel: the GC frees both
 * sockets, in datagram and in stream mode.
 */
#include "lib/uscm.h"

#define CYCLES 200

static void pair_cycle(int type, const char *name)
{
	long socks = uscm_unix_sockets(), files = uscm_file_nr(), left;
	int i, err = 0;

	for (i = 0; i < CYCLES && !err; i++) {
		int sv[2];

		if (socketpair(AF_UNIX, type, 0, sv)) {
			err = -errno;
			break;
		}
		err = uscm_send_fd(sv[0], sv[0]);
		if (!err)
			err = uscm_send_fd(sv[1], sv[1]);
		close(sv[0]);
		close(sv[1]);
	}
	if (err) {
		ksft_test_result_fail("%s: building cycle %d: %s\n", name, i, strerror(-err));
		return;
	}
	if (uscm_unix_sockets() < socks + 2 * CYCLES) {
		ksft_test_result_fail("%s: cycles were freed without the GC\n", name);
		return;
	}
	uscm_kick_gc();
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(left == 0, "%s: %d pair cycles collected (%ld sockets left)\n",
			 name, CYCLES, left);
	left = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files;
	ksft_test_result(left <= USCM_FILE_NR_SLACK, "%s: open files back at baseline (%+ld)\n",
			 name, left);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(4);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	pair_cycle(SOCK_DGRAM, "dgram");
	pair_cycle(SOCK_STREAM, "stream");
	ksft_finished();
}
