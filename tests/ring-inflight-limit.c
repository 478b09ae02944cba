// SPDX-License-Identifier: GPL-2.0
/*
 * F9: AF_UNIX sockets held in the fixed table of a ring that has been
 * sent with SCM_RIGHTS count against the user's in-flight limit, as
 * SCM_RIGHTS fds do.  An unprivileged user (nobody, RLIMIT_NOFILE 64)
 * (and uid 65533, for the second scenario) fills several rings' tables
 * with sockets it then closes, so it holds them only through the rings.
 *
 * A ring never sent is in no cycle, so its table is not in the GC graph
 * and not charged: on every kernel all 192 sockets register.
 *
 * stock and refusing: ring fds are refused (EINVAL), no limit applies,
 * and SCM_RIGHTS still works.
 * patched, rings sent first: the 66th socket is refused with
 * ETOOMANYREFS (the limit is "in flight > RLIMIT_NOFILE"), and so is a
 * later SCM_RIGHTS send.
 * patched, rings filled first: sending the first ring (48 sockets) works,
 * sending the second is refused with ETOOMANYREFS, and the edges that
 * send made before it hit the limit are given back: an SCM_RIGHTS send
 * afterwards works on every kernel.
 * root (CAP_SYS_RESOURCE) is never limited.
 */
#include <sys/resource.h>
#include "lib/ring.h"

#define LIMIT 64
#define RINGS 4
#define SLOTS 48
#define NRES 5

/* Queue the ring fd on a fresh pair and take it back; 0 or -errno. */
static int send_ring(struct io_uring *ring)
{
	int sv[2], ret, fd;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return -errno;
	ret = uscm_send_fd(sv[0], ring->ring_fd);
	if (!ret) {
		fd = uscm_recv_fd(sv[1], 0);
		if (fd < 0)
			ret = fd;
		else
			close(fd);
	}
	close(sv[0]);
	close(sv[1]);
	return ret;
}

/* Sockets into every table; how many got in, and the first error in *err. */
static int fill(struct io_uring *ring, int *err)
{
	int r, s, n = 0, sv[2];

	*err = 0;
	for (r = 0; r < RINGS && !*err; r++) {
		for (s = 0; s < SLOTS && !*err; s += 2) {
			int ret;

			if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
				return -1;
			ret = io_uring_register_files_update(&ring[r], s, sv, 2);
			if (ret == 2)
				n += 2;
			else if (ret == 1)
				n += 1, *err = -ETOOMANYREFS;
			else
				*err = ret;
			close(sv[0]);
			close(sv[1]);
		}
	}
	return n;
}

static int setup(struct io_uring *ring)
{
	int r;

	for (r = 0; r < RINGS; r++)
		if (io_uring_queue_init(2, &ring[r], 0) ||
		    io_uring_register_files_sparse(&ring[r], SLOTS))
			return -1;
	return 0;
}

/* res: sockets in, fill error, first ring send, SCM_RIGHTS afterwards */
static void sent_first(int *res)
{
	struct io_uring ring[RINGS];
	int r, sv[2];

	if (setup(ring))
		_exit(1);
	res[2] = 0;
	for (r = 0; r < RINGS; r++) {
		int ret = send_ring(&ring[r]);

		if (!r)
			res[2] = ret;
	}
	res[0] = fill(ring, &res[1]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		_exit(1);
	res[3] = uscm_send_fd(sv[0], sv[0]);
}

/*
 * res: sockets in, fill error, send of ring 0, send of ring 1,
 * SCM_RIGHTS afterwards
 */
static void filled_first(int *res)
{
	struct io_uring ring[RINGS];
	int sv[2];

	if (setup(ring))
		_exit(1);
	res[0] = fill(ring, &res[1]);
	res[2] = send_ring(&ring[0]);
	res[3] = send_ring(&ring[1]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		_exit(1);
	res[4] = uscm_send_fd(sv[0], sv[0]);
}

static void as_user(int uid, void (*scenario)(int *), int *res)
{
	struct rlimit rl = { LIMIT, LIMIT };
	int pipefd[2];
	pid_t pid;

	res[0] = -2;
	if (pipe(pipefd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (!pid) {
		if (setrlimit(RLIMIT_NOFILE, &rl) ||
		    (uid && (setgid(uid) || setuid(uid))))
			_exit(1);
		scenario(res);
		if (write(pipefd[1], res, NRES * sizeof(int)) != NRES * sizeof(int))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], res, NRES * sizeof(int)) != NRES * sizeof(int))
		res[0] = -2;
	close(pipefd[0]);
	waitpid(pid, NULL, 0);
}

/*
 * Each scenario runs as its own user: a user's in-flight count is only
 * given back once its rings are torn down, after the child has gone.
 */
static void check_user(int uid, int uid2, const char *who)
{
	int limited = uscm_kernel() == KERNEL_PATCHED && uid != 0;
	int send = uscm_ring_send_expect(), res[NRES] = { 0 };

	as_user(uid, sent_first, res);
	if (limited)
		ksft_test_result(res[2] == send && res[0] == LIMIT + 1 &&
				 res[1] == -ETOOMANYREFS,
				 "%s: ring sent (%s), %d sockets in tables, then %s (want %d, ETOOMANYREFS)\n",
				 who, uscm_err(res[2]), res[0], uscm_err(res[1]), LIMIT + 1);
	else
		ksft_test_result(res[2] == send && res[0] == RINGS * SLOTS && !res[1],
				 "%s on %s: ring send %s (want %s), all %d sockets in tables (%s)\n",
				 who, uscm_kernel_name(), uscm_err(res[2]), uscm_err(send),
				 res[0], uscm_err(res[1]));
	ksft_test_result(res[3] == (limited ? -ETOOMANYREFS : 0),
			 "%s on %s: SCM_RIGHTS after filling sent rings: %s (want %s)\n",
			 who, uscm_kernel_name(), uscm_err(res[3]),
			 uscm_err(limited ? -ETOOMANYREFS : 0));

	as_user(uid2, filled_first, res);
	ksft_test_result(res[0] == RINGS * SLOTS && !res[1] && res[2] == send &&
			 res[3] == (limited ? -ETOOMANYREFS : send),
			 "%s (uid %d) on %s: %d sockets in unsent rings (want %d), then ring sends %s, %s (want %s, %s)\n",
			 who, uid2, uscm_kernel_name(), res[0], RINGS * SLOTS,
			 uscm_err(res[2]), uscm_err(res[3]), uscm_err(send),
			 uscm_err(limited ? -ETOOMANYREFS : send));
	ksft_test_result(!res[4],
			 "%s (uid %d) on %s: SCM_RIGHTS after the ring sends: %s (want success: a refused ring send leaves nothing in flight)\n",
			 who, uid2, uscm_kernel_name(), uscm_err(res[4]));
}

int main(void)
{
	long socks = uscm_unix_sockets(), left;

	ksft_print_header();
	ksft_set_plan(9);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	check_user(65534, 65533, "nobody");
	check_user(0, 0, "root");
	uscm_kick_gc();
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!left, "every socket returned at exit (%+ld)\n", left);
	ksft_finished();
}
