// SPDX-License-Identifier: GPL-2.0
/*
 * The registration ABI is unchanged (F1), and errno for errno the same on
 * every kernel, except where the design says: a ring fd in SCM_RIGHTS is
 * EINVAL on stock and while kernel.io_uring_scm_rights is 0.
 */
#include "lib/ring.h"

static int update(struct io_uring *ring, int fd)
{
	int ret = io_uring_register_files_update(ring, 0, &fd, 1);

	return ret == 1 ? 0 : ret;
}

int main(void)
{
	struct io_uring ring, other;
	int sv[2], fd, ret, closed;

	ksft_print_header();
	ksft_set_plan(10);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (io_uring_queue_init(4, &ring, 0) || io_uring_queue_init(4, &other, 0) ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	closed = dup(sv[0]);
	close(closed);

	ret = io_uring_register_files(&ring, &ring.ring_fd, 1);
	ksft_test_result(ret == -EBADF, "register the ring's own fd: %s\n", uscm_err(ret));
	ret = io_uring_register_files(&ring, &other.ring_fd, 1);
	ksft_test_result(ret == -EBADF, "register another ring's fd: %s\n", uscm_err(ret));
	ret = io_uring_register_files(&ring, &closed, 1);
	ksft_test_result(ret == -EBADF, "register a closed fd: %s\n", uscm_err(ret));
	ret = io_uring_register_files(&ring, sv, 0);
	ksft_test_result(ret == -EINVAL, "register nr_args 0: %s\n", uscm_err(ret));
	ret = io_uring_register_files(&ring, sv, 2);
	ksft_test_result(!ret, "register a socket pair: %s\n", uscm_err(ret));
	ret = io_uring_register_files(&ring, sv, 2);
	ksft_test_result(ret == -EBUSY, "register twice: %s\n", uscm_err(ret));
	ret = update(&ring, other.ring_fd);
	ksft_test_result(ret == -EBADF, "FILES_UPDATE with a ring fd: %s\n", uscm_err(ret));
	ret = io_uring_register_files_update(&ring, 2, sv, 1);
	ksft_test_result(ret == -EINVAL, "FILES_UPDATE out of range: %s\n", uscm_err(ret));
	ret = io_uring_unregister_files(&ring);
	fd = io_uring_unregister_files(&ring);
	ksft_test_result(!ret && fd == -ENXIO, "unregister twice: %s, then %s\n",
			 uscm_err(ret), uscm_err(fd));
	ret = uscm_send_fd(sv[0], other.ring_fd);
	ksft_test_result(ret == uscm_ring_send_expect(), "sendmsg(ring fd) on %s: %s\n",
			 uscm_kernel_name(), uscm_err(ret));
	ksft_finished();
}
