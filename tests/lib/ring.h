/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io_uring helpers for the cycle tests (liburing from Debian).  A ring's
 * table always gets a pipe's write end as a probe: the pipe's read end sees
 * EOF exactly when the ring has been torn down and its table put.
 */
#ifndef USCM_RING_H
#define USCM_RING_H

#include <liburing.h>
#include "uscm.h"

/* What queueing a ring fd with SCM_RIGHTS gives on this kernel. */
static inline int uscm_ring_send_expect(void)
{
	return uscm_kernel() == KERNEL_PATCHED ? 0 : -EINVAL;
}

static inline const char *uscm_err(int err)
{
	return err ? strerror(-err) : "success";
}

/* Submit one prepared sqe and reap its cqe; the cqe's res. */
static inline int uscm_ring_run(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/* MSG_RING: pass src's fixed slot to dst's slot (liburing 2.3 has no
 * helper for IORING_MSG_SEND_FD yet).
 */
static inline int uscm_msg_ring_fd(struct io_uring *src, int dst_fd,
				   unsigned int src_slot, unsigned int dst_slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(src);

	io_uring_prep_rw(IORING_OP_MSG_RING, sqe, dst_fd, NULL, 0, 0);
	sqe->addr = IORING_MSG_SEND_FD;
	sqe->addr3 = src_slot;
	sqe->file_index = dst_slot + 1;
	return uscm_ring_run(src);
}

/*
 * The verdict a cycle scenario ends with: ring fds were accepted or
 * refused as this kernel should, every ring's probe saw EOF (the ring was
 * torn down and its table put), and AF_UNIX sockets are back at socks.
 */
static inline void uscm_expect_collected(const char *name, int bad, int *probes, int n,
					 long socks)
{
	long left;
	int freed;

	ksft_test_result(!bad, "%s: sendmsg(ring fd) gives %s on %s (%d unexpected)\n", name,
			 uscm_err(uscm_ring_send_expect()), uscm_kernel_name(), bad);
	uscm_kick_gc();
	freed = uscm_wait_eof_all(probes, n);
	ksft_test_result(freed == n, "%s: %d of %d rings torn down\n", name, freed, n);
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!left, "%s: AF_UNIX sockets back at baseline (%+ld)\n", name, left);
}

/* Queue fds[0..n) as SCM_RIGHTS with MSG_OOB on a stream socket. */
static inline int uscm_send_oob_fd(int sock, int fd)
{
	return uscm_send_fds_flags(sock, &fd, 1, MSG_OOB);
}

#endif
