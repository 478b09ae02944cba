// SPDX-License-Identifier: GPL-2.0
/*
 * F9: AF_UNIX sockets held in fixed tables count against the user's
 * in-flight limit, as SCM_RIGHTS fds do.  An unprivileged user (nobody,
 * RLIMIT_NOFILE 64) fills several rings' tables with sockets it then
 * closes, so it holds them only through the rings.
 *
 * stock: no limit; all 192 sockets register, and SCM_RIGHTS still works.
 * patched, refusing: the 66th socket is refused with ETOOMANYREFS (the
 * limit is "in flight > RLIMIT_NOFILE"), and so is a later SCM_RIGHTS
 * send; root (CAP_SYS_RESOURCE) is not limited.
 */
#include <sys/resource.h>
#include "lib/ring.h"

#define LIMIT 64
#define RINGS 4
#define SLOTS 48

/* Returns how many sockets got in, and the first error in *err. */
static int fill(int *err, int *scm_err)
{
	struct io_uring ring[RINGS];
	int r, s, n = 0, sv[2];

	*err = 0;
	for (r = 0; r < RINGS; r++)
		if (io_uring_queue_init(2, &ring[r], 0) ||
		    io_uring_register_files_sparse(&ring[r], SLOTS))
			return -1;
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
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return -1;
	*scm_err = uscm_send_fd(sv[0], sv[0]);
	close(sv[0]);
	close(sv[1]);
	return n;
}

static void as_user(int uid, const char *who)
{
	struct rlimit rl = { LIMIT, LIMIT };
	int pipefd[2], res[3] = { -1, 0, 0 }, stock = uscm_kernel() == KERNEL_STOCK;
	int limited = !stock && uid != 0;
	pid_t pid;

	if (pipe(pipefd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (!pid) {
		if (setrlimit(RLIMIT_NOFILE, &rl) ||
		    (uid && (setgid(65534) || setuid(65534))))
			_exit(1);
		res[0] = fill(&res[1], &res[2]);
		if (write(pipefd[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], res, sizeof(res)) != sizeof(res))
		res[0] = -2;
	close(pipefd[0]);
	waitpid(pid, NULL, 0);

	if (limited) {
		ksft_test_result(res[0] == LIMIT + 1 && res[1] == -ETOOMANYREFS,
				 "%s: %d sockets in tables, then %s (want %d, ETOOMANYREFS)\n",
				 who, res[0], uscm_err(res[1]), LIMIT + 1);
		ksft_test_result(res[2] == -ETOOMANYREFS,
				 "%s: SCM_RIGHTS over the limit: %s\n", who, uscm_err(res[2]));
	} else {
		ksft_test_result(res[0] == RINGS * SLOTS && !res[1],
				 "%s on %s: all %d sockets in tables (%s)\n", who,
				 uscm_kernel_name(), res[0], uscm_err(res[1]));
		ksft_test_result(!res[2], "%s on %s: SCM_RIGHTS still works: %s\n", who,
				 uscm_kernel_name(), uscm_err(res[2]));
	}
}

int main(void)
{
	long socks = uscm_unix_sockets(), left;

	ksft_print_header();
	ksft_set_plan(5);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	as_user(65534, "nobody");
	as_user(0, "root");
	uscm_kick_gc();
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!left, "every socket returned at exit (%+ld)\n", left);
	ksft_finished();
}
