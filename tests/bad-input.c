// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to the fixed-file ABI and to SCM_RIGHTS with rings: every case
 * asserts the exact errno, and that no AF_UNIX socket and no file leaked
 * (socket count exact; files via ring probes and /proc/sys/fs/file-nr).
 *
 * Same errno on every kernel (the ABI is unchanged, F1), except the cases
 * that queue a ring fd: EINVAL on stock and refusing, success on patched,
 * where the cycles they build must then be collected.
 */
#include <sys/syscall.h>
#include "lib/ring.h"

#define BAD_PTR ((void *)8)

static struct io_uring ring, other;
static int sv[2], closed_fd, opath_fd, pipefd[2];

static int reg(struct io_uring *r, void *fds, unsigned int n)
{
	return syscall(__NR_io_uring_register, r->ring_fd, IORING_REGISTER_FILES, fds, n) ?
		-errno : 0;
}

static int update(struct io_uring *r, unsigned int off, int fd, __u64 tag)
{
	struct io_uring_rsrc_update2 up = {
		.offset = off, .data = (unsigned long)&fd,
		.tags = tag ? (unsigned long)&tag : 0, .nr = 1,
	};
	int ret = syscall(__NR_io_uring_register, r->ring_fd, IORING_REGISTER_FILES_UPDATE2,
			  &up, sizeof(up));

	return ret < 0 ? -errno : ret == 1 ? 0 : -EIO;
}

static int unreg(struct io_uring *r)
{
	return io_uring_unregister_files(r);
}

static int op_close_direct(struct io_uring *r, unsigned int slot)
{
	io_uring_prep_close_direct(io_uring_get_sqe(r), slot);
	return uscm_ring_run(r);
}

/* Each case runs on a fresh pair of rings with no table. */
static int c_own_fd(void) { return reg(&ring, &ring.ring_fd, 1); }
static int c_other_ring(void) { return reg(&ring, &other.ring_fd, 1); }
static int c_closed(void) { return reg(&ring, &closed_fd, 1); }
static int c_opath(void) { return reg(&ring, &opath_fd, 1); }
static int c_minus_two(void) { int fd = -2; return reg(&ring, &fd, 1); }
static int c_nr_zero(void) { return reg(&ring, sv, 0); }
static int c_too_many(void) { return reg(&ring, sv, (1U << 20) + 1); }
static int c_bad_ptr(void) { return reg(&ring, BAD_PTR, 2); }
static int c_twice(void)
{
	int ret = reg(&ring, sv, 2);

	return ret ? -EIO : reg(&ring, sv, 2);
}

static int c_upd_no_table(void) { return update(&ring, 0, sv[0], 0); }
static int c_upd_range(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : update(&ring, 4, sv[0], 0);
}

static int c_upd_ring(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : update(&ring, 0, other.ring_fd, 0);
}

static int c_upd_closed(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : update(&ring, 0, closed_fd, 0);
}

static int c_upd_minus1_tag(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : update(&ring, 0, -1, 7);
}

static int c_unreg_none(void) { return unreg(&ring); }
static int c_unreg_twice(void)
{
	return reg(&ring, sv, 2) || unreg(&ring) ? -EIO : unreg(&ring);
}

static int c_close_empty(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : op_close_direct(&ring, 1);
}

static int c_close_range(void)
{
	return io_uring_register_files_sparse(&ring, 4) ? -EIO : op_close_direct(&ring, 9);
}

static int c_msg_self(void)
{
	return reg(&ring, sv, 2) ? -EIO : uscm_msg_ring_fd(&ring, ring.ring_fd, 0, 0);
}

static int c_msg_empty(void)
{
	if (io_uring_register_files_sparse(&ring, 4) || io_uring_register_files_sparse(&other, 4))
		return -EIO;
	return uscm_msg_ring_fd(&ring, other.ring_fd, 2, 0);
}

static int c_msg_not_ring(void)
{
	return reg(&ring, sv, 2) ? -EIO : uscm_msg_ring_fd(&ring, sv[0], 0, 0);
}

static int c_msg_no_table(void)
{
	return reg(&ring, sv, 2) ? -EIO : uscm_msg_ring_fd(&ring, other.ring_fd, 0, 0);
}

static int c_scm_refused(void)
{
	/* the whole system refuses for this case */
	return uscm_send_fd(sv[0], ring.ring_fd);
}

/* A ring fd sent over a socket that is itself registered in that ring. */
static int c_scm_own_socket(void)
{
	return reg(&ring, sv, 2) ? -EIO : uscm_send_fd(sv[0], ring.ring_fd);
}

/* A socket whose receive queue holds its own ring. */
static int c_scm_own_queue(void)
{
	return reg(&ring, &sv[1], 1) ? -EIO : uscm_send_fd(sv[0], ring.ring_fd);
}

/* IORING_REGISTER_FILES with tags but no fds: tags on empty slots */
static int c_sparse_tags(void)
{
	__u64 tags[2] = { 1, 2 };
	struct io_uring_rsrc_register rr = {
		.nr = 2, .flags = IORING_RSRC_REGISTER_SPARSE,
		.tags = (unsigned long)tags,
	};

	return syscall(__NR_io_uring_register, ring.ring_fd, IORING_REGISTER_FILES2,
		       &rr, sizeof(rr)) < 0 ? -errno : 0;
}

struct bad_case {
	const char *name;
	int (*run)(void);
	int want;		/* stock, every kernel unless ring_fd */
	int ring_fd;		/* queues a ring fd: success on patched */
	int refuse;		/* run with the sysctl at 0 (patched only) */
};

static const struct bad_case cases[] = {
	{ "register the ring's own fd", c_own_fd, -EBADF, 0, 0 },
	{ "register another ring's fd", c_other_ring, -EBADF, 0, 0 },
	{ "register a closed fd", c_closed, -EBADF, 0, 0 },
	{ "register an O_PATH fd", c_opath, -EBADF, 0, 0 },
	{ "register fd -2", c_minus_two, -EBADF, 0, 0 },
	{ "register nr_args 0", c_nr_zero, -EINVAL, 0, 0 },
	{ "register more than IORING_MAX_FIXED_FILES", c_too_many, -EMFILE, 0, 0 },
	{ "register from a bad pointer", c_bad_ptr, -EFAULT, 0, 0 },
	{ "register twice", c_twice, -EBUSY, 0, 0 },
	{ "update without a table", c_upd_no_table, -ENXIO, 0, 0 },
	{ "update past the table", c_upd_range, -EINVAL, 0, 0 },
	{ "update with a ring fd", c_upd_ring, -EBADF, 0, 0 },
	{ "update with a closed fd", c_upd_closed, -EBADF, 0, 0 },
	{ "update -1 with a tag", c_upd_minus1_tag, -EINVAL, 0, 0 },
	{ "unregister without a table", c_unreg_none, -ENXIO, 0, 0 },
	{ "unregister twice", c_unreg_twice, -ENXIO, 0, 0 },
	{ "close-direct an empty slot", c_close_empty, -EBADF, 0, 0 },
	{ "close-direct past the table", c_close_range, -EINVAL, 0, 0 },
	{ "MSG_RING fd to itself", c_msg_self, -EINVAL, 0, 0 },
	{ "MSG_RING fd from an empty slot", c_msg_empty, -EBADF, 0, 0 },
	{ "MSG_RING fd to a socket", c_msg_not_ring, -EBADFD, 0, 0 },
	{ "MSG_RING fd to a ring without a table", c_msg_no_table, -ENXIO, 0, 0 },
	{ "sparse registration with tags", c_sparse_tags, -EINVAL, 0, 0 },
	{ "SCM_RIGHTS of a ring fd, sysctl refusing", c_scm_refused, -EINVAL, 0, 1 },
	{ "ring fd over a socket registered in it", c_scm_own_socket, -EINVAL, 1, 0 },
	{ "socket whose queue holds its own ring", c_scm_own_queue, -EINVAL, 1, 0 },
};

static void set_refuse(int on)
{
	FILE *f = fopen(USCM_SYSCTL, "w");

	if (f) {
		fprintf(f, "%d\n", on ? 0 : 1);
		fclose(f);
	}
}

int main(void)
{
	enum uscm_kernel k = uscm_kernel();
	unsigned int i;

	ksft_print_header();
	ksft_set_plan(sizeof(cases) / sizeof(cases[0]));
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		long socks = uscm_unix_sockets(), files = uscm_file_nr(), left_s, left_f;
		int want = c->want, got, probe;

		if (c->ring_fd && k == KERNEL_PATCHED)
			want = 0;
		if (io_uring_queue_init(4, &ring, 0) || io_uring_queue_init(4, &other, 0) ||
		    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || pipe(pipefd))
			ksft_exit_fail_msg("setup: %s\n", strerror(errno));
		closed_fd = dup(sv[0]);
		close(closed_fd);
		opath_fd = open("/proc/self/exe", O_PATH);
		if (c->refuse && k == KERNEL_PATCHED)
			set_refuse(1);
		got = c->run();
		if (c->refuse && k == KERNEL_PATCHED)
			set_refuse(0);
		/* the ring's probe: its end goes in a spare slot if a table exists */
		update(&ring, 3, pipefd[1], 0);
		close(pipefd[1]);
		probe = pipefd[0];
		close(sv[0]);
		close(sv[1]);
		close(opath_fd);
		io_uring_queue_exit(&ring);
		io_uring_queue_exit(&other);
		uscm_kick_gc();
		left_s = uscm_wait_le(uscm_unix_sockets, socks) - socks;
		left_f = uscm_wait_eof(probe) ? 0 : 1;
		if (!left_f)
			left_f = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files >
				 USCM_FILE_NR_SLACK;
		ksft_test_result(got == want && !left_s && !left_f,
				 "%s: %s (want %s), sockets %+ld, files %s\n", c->name,
				 uscm_err(got), uscm_err(want), left_s, left_f ? "LEAKED" : "back");
	}
	ksft_finished();
}
