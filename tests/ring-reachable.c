// SPDX-License-Identifier: GPL-2.0
/*
 * F7: a reachable ring is never collected.  The ring's fd is queued at a
 * socket the test keeps open, and also in a cycle through its own table.
 * Through several collections the ring keeps its files; once received it
 * still works: a fixed-file write through it is read back from the pipe.
 *
 * stock, refusing: the ring fd is refused with EINVAL; the later cases
 * cannot be built there and are skipped.
 * patched: the ring survives, works, and is collected once unreachable.
 */
#include "lib/ring.h"

static void settle(void)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	int i;

	for (i = 0; i < 5; i++) {
		uscm_kick_gc();
		nanosleep(&ts, NULL);
	}
}

int main(void)
{
	long socks = uscm_unix_sockets();
	int x[2], s[2], p[2], fds[3], err, rfd, ret;
	struct io_uring_params params = { 0 };
	struct io_uring ring, got;
	struct io_uring_sqe *sqe;
	char buf[8] = "";

	ksft_print_header();
	ksft_set_plan(5);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	if (io_uring_queue_init_params(4, &ring, &params) ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, x) ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, s) || pipe(p))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	fds[0] = s[0];
	fds[1] = s[1];
	fds[2] = p[1];
	if (io_uring_register_files(&ring, fds, 3))
		ksft_exit_fail_msg("register failed\n");

	err = uscm_send_fd(x[0], ring.ring_fd);
	if (!err)
		err = uscm_send_fd(s[0], ring.ring_fd);
	ksft_test_result(err == uscm_ring_send_expect(),
			 "sendmsg(ring fd) gives %s on %s\n", uscm_err(err), uscm_kernel_name());
	if (err) {
		ksft_test_result_skip("ring fd cannot be queued on this kernel\n");
		ksft_test_result_skip("ring fd cannot be queued on this kernel\n");
		ksft_test_result_skip("ring fd cannot be queued on this kernel\n");
		ksft_test_result_skip("ring fd cannot be queued on this kernel\n");
		ksft_finished();
	}
	close(s[0]);
	close(s[1]);
	close(p[1]);
	io_uring_queue_exit(&ring);

	settle();
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	ksft_test_result(!uscm_pipe_eof(p[0]) && errno == EAGAIN,
			 "ring queued at an open socket keeps its files through 5 collections\n");

	rfd = uscm_recv_fd(x[1], 0);
	ksft_test_result(rfd >= 0, "ring fd received back (%d)\n", rfd);

	/* map the received fd with the setup's offsets, write via slot 2 */
	ret = rfd >= 0 ? io_uring_queue_mmap(rfd, &params, &got) : -EBADF;
	if (!ret) {
		sqe = io_uring_get_sqe(&got);
		io_uring_prep_write(sqe, 2, "hello", 5, 0);
		sqe->flags |= IOSQE_FIXED_FILE;
		ret = uscm_ring_run(&got);
		if (ret == 5)
			ret = read(p[0], buf, sizeof(buf)) == 5 ? 5 : -EIO;
	}
	ksft_test_result(ret == 5 && !memcmp(buf, "hello", 5),
			 "fixed-file write through the received ring read back (%d)\n", ret);
	io_uring_queue_exit(&got);
	close(x[0]);
	close(x[1]);
	uscm_kick_gc();
	ksft_test_result(uscm_wait_eof(p[0]) &&
			 uscm_wait_le(uscm_unix_sockets, socks) == socks,
			 "collected once unreachable: ring torn down, sockets at baseline\n");
	ksft_finished();
}
