// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized cycle-graph stress.  From one seed, WORKERS processes build
 * random graphs of dgram and stream socket pairs, listeners with embryos,
 * and rings with sparse or dense tables; they link them with SCM_RIGHTS
 * (rings included where the kernel allows it, some as MSG_OOB, some sent
 * by a ring's own IORING_OP_SENDMSG), table updates, direct descriptors
 * (IORING_OP_SOCKET and IORING_OP_ACCEPT into a slot) and MSG_RING passes;
 * they connect() to listeners, peek at queues holding fds and write
 * through fixed files; then they close everything in random order, or a
 * child doing the same is SIGKILLed half-way.  After every batch the
 * parent waits for the GC and checks that AF_UNIX sockets, open files, the
 * UNIX, UNIX-STREAM and io_kiocb slabs and (with the GC inspector)
 * in-flight fds and graph vertices are back at their baseline.  A failure
 * prints the seed and batch to replay.
 *
 * patched, refusing: nothing is left behind.  stock: batches leak through
 * the F19 bug (patch 2), declared as XFAIL.  On stock and refusing kernels
 * ring fds are refused (EINVAL), so fewer cycles run through rings.
 *
 * Size: uscm_stress_ops=N and uscm_stress_seed=S on the kernel command
 * line (make stress); the default is the short fixed-seed slice.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/un.h>
#include "lib/ring.h"

#define WORKERS 8
#define MAXOBJ 12
#define MAXEXTRA 8

enum kind { PAIR_DGRAM, PAIR_STREAM, LISTENER, RING, NKINDS };

struct obj {
	enum kind kind;
	int fd[2];		/* pair ends; listener, client; ring fd, -1 */
	int pipe_r;		/* ring: its probe pipe's read end */
	struct io_uring ring;
	int slots;
	int backlog;		/* listener: connections not yet accepted */
};

struct graph {
	struct obj o[MAXOBJ];
	int n;
	int extra[MAXEXTRA];	/* clients connect()ed to listeners later */
	int nextra;
};

/* What succeeded, by kind: each kind must have happened in a run. */
enum done_kind {
	D_SCM, D_SCM_RING, D_OOB, D_TABLE, D_MSG_RING, D_RING_SENDMSG,
	D_DIRECT_SOCKET, D_DIRECT_ACCEPT, D_CONNECT, D_PEEK, D_FIXED_WRITE,
	D_CHILD_KILLED, D_CHILD_EXITED, NDONE
};
static const char * const done_names[NDONE] = {
	"scm_rights", "scm_rights(ring)", "oob", "table_update", "msg_ring",
	"ring_sendmsg", "direct_socket", "direct_accept", "connect", "peek",
	"fixed_write", "child_killed", "child_exited",
};

struct tally {
	unsigned long ops;
	unsigned long done[NDONE];
};

static struct tally tally;
static int ring_fd_ok;

static void count(enum done_kind k, int ok)
{
	if (ok)
		tally.done[k]++;
}

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return rand_r(seed) % n;
}

/* any socket fd of the graph, or -1 */
static int pick_sock(struct graph *g, unsigned int *seed)
{
	int tries;

	if (g->nextra && !rnd(seed, 4))
		return g->extra[rnd(seed, g->nextra)];
	for (tries = 0; tries < 8; tries++) {
		struct obj *o = &g->o[rnd(seed, g->n)];

		if (o->kind != RING)
			return o->fd[rnd(seed, 2)];
	}
	return -1;
}

static int pick_ring(struct graph *g, unsigned int *seed)
{
	int tries;

	for (tries = 0; tries < 8; tries++) {
		int i = rnd(seed, g->n);

		if (g->o[i].kind == RING)
			return i;
	}
	return -1;
}

static void make_obj(struct obj *o, unsigned int *seed, int w, int id)
{
	memset(o, 0, sizeof(*o));
	o->kind = rnd(seed, NKINDS);
	o->fd[0] = o->fd[1] = o->pipe_r = -1;
	if (o->kind == PAIR_DGRAM || o->kind == PAIR_STREAM) {
		if (socketpair(AF_UNIX, o->kind == PAIR_DGRAM ? SOCK_DGRAM : SOCK_STREAM, 0,
			       o->fd))
			o->fd[0] = o->fd[1] = -1;
	} else if (o->kind == LISTENER) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		socklen_t len = sizeof(sa_family_t) + 1 + 24;

		snprintf(a.sun_path + 1, 24, "uscm-st-%d-%d", w, id);
		o->fd[0] = socket(AF_UNIX, SOCK_STREAM, 0);
		o->fd[1] = socket(AF_UNIX, SOCK_STREAM, 0);
		if (bind(o->fd[0], (void *)&a, len) || listen(o->fd[0], 8) ||
		    connect(o->fd[1], (void *)&a, len)) {
			close(o->fd[0]);
			close(o->fd[1]);
			o->fd[0] = o->fd[1] = -1;
		}
		o->backlog = 1;
	} else {
		int p[2];

		o->slots = 8;
		if (io_uring_queue_init(4, &o->ring, 0) || pipe(p)) {
			o->kind = PAIR_DGRAM;
			o->fd[0] = o->fd[1] = -1;
			return;
		}
		o->fd[0] = o->ring.ring_fd;
		o->pipe_r = p[0];
		fcntl(p[1], F_SETFL, O_NONBLOCK);
		if (rnd(seed, 2)) {
			int fds[8] = { p[1], -1, -1, -1, -1, -1, -1, -1 };

			io_uring_register_files(&o->ring, fds, 8);	/* dense head */
		} else {
			io_uring_register_files_sparse(&o->ring, 8);
			io_uring_register_files_update(&o->ring, 0, &p[1], 1);
		}
		close(p[1]);
	}
	tally.ops++;
}

/* A new client of a listener; it joins the graph's sockets. */
static void connect_listener(struct graph *g, struct obj *l)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int fd;

	if (l->kind != LISTENER || l->fd[0] < 0 || g->nextra == MAXEXTRA ||
	    getsockname(l->fd[0], (void *)&a, &len))
		return;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return;
	if (connect(fd, (void *)&a, len)) {
		close(fd);
		return;
	}
	l->backlog++;
	g->extra[g->nextra++] = fd;
	count(D_CONNECT, 1);
}

/* The ring's own IORING_OP_SENDMSG queues fd on sock as SCM_RIGHTS. */
static void ring_sendmsg_fd(struct io_uring *ring, int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'r';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(fd));
	io_uring_prep_sendmsg(io_uring_get_sqe(ring), sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	count(D_RING_SENDMSG, uscm_ring_run(ring) == 1);
}

/* A direct descriptor: a socket that only the ring's table holds. */
static void ring_direct_socket(struct obj *ro, unsigned int *seed, struct obj *l)
{
	unsigned int slot = 1 + rnd(seed, 7);

	if (l->kind == LISTENER && l->fd[0] >= 0 && l->backlog > 0) {
		/* accept the oldest connection straight into the slot */
		io_uring_prep_accept_direct(io_uring_get_sqe(&ro->ring), l->fd[0], NULL, NULL,
					    0, slot);
		if (uscm_ring_run(&ro->ring) >= 0) {
			l->backlog--;
			count(D_DIRECT_ACCEPT, 1);
		}
		return;
	}
	io_uring_prep_socket_direct(io_uring_get_sqe(&ro->ring), AF_UNIX,
				    rnd(seed, 2) ? SOCK_DGRAM : SOCK_STREAM, 0, slot, 0);
	count(D_DIRECT_SOCKET, uscm_ring_run(&ro->ring) == 0);
}

static void add_edge(struct graph *g, unsigned int *seed)
{
	int r, s = pick_sock(g, seed), op = rnd(seed, 14);
	struct obj *o;

	if (s < 0)
		return;
	o = &g->o[rnd(seed, g->n)];
	switch (op) {
	case 0 ... 3:	/* SCM_RIGHTS of any object, rings included */
		if (o->fd[0] >= 0 && (o->kind != RING || ring_fd_ok))
			count(o->kind == RING ? D_SCM_RING : D_SCM,
			      !uscm_send_fd(s, o->fd[rnd(seed, o->kind == RING ? 1 : 2)]));
		break;
	case 4:		/* as MSG_OOB (stream sockets only take it) */
		if (o->fd[0] >= 0 && (o->kind != RING || ring_fd_ok))
			count(D_OOB, !uscm_send_oob_fd(s, o->fd[0]));
		break;
	case 5 ... 7:	/* a socket into a ring's table */
		r = pick_ring(g, seed);
		if (r >= 0)
			count(D_TABLE, io_uring_register_files_update(&g->o[r].ring,
								     1 + rnd(seed, 7), &s, 1) == 1);
		break;
	case 10:	/* SCM_RIGHTS sent by a ring's own IORING_OP_SENDMSG */
		r = pick_ring(g, seed);
		if (r >= 0 && o->fd[0] >= 0 && (o->kind != RING || ring_fd_ok))
			ring_sendmsg_fd(&g->o[r].ring, s, o->fd[0]);
		break;
	case 11:	/* IORING_OP_SOCKET or IORING_OP_ACCEPT into a slot */
		r = pick_ring(g, seed);
		if (r >= 0)
			ring_direct_socket(&g->o[r], seed, o);
		break;
	case 12:	/* connect() to a listener: a new embryo */
		connect_listener(g, o);
		break;
	case 8: {	/* MSG_RING pass of a slot into another ring */
		int a = pick_ring(g, seed), b = pick_ring(g, seed);

		if (a >= 0 && b >= 0 && a != b)
			count(D_MSG_RING, !uscm_msg_ring_fd(&g->o[a].ring, g->o[b].fd[0],
							    rnd(seed, 8), 1 + rnd(seed, 7)));
		break;
	}
	default: {	/* peek at a queue, or write through a fixed file */
		int fd;

		r = pick_ring(g, seed);
		if (r >= 0 && rnd(seed, 2)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&g->o[r].ring);

			io_uring_prep_write(sqe, 0, "x", 1, 0);
			sqe->flags |= IOSQE_FIXED_FILE;
			count(D_FIXED_WRITE, uscm_ring_run(&g->o[r].ring) == 1);
		} else {
			fd = uscm_recv_fd(s, MSG_PEEK);
			count(D_PEEK, fd >= 0);
			if (fd >= 0)
				close(fd);
		}
	}
	}
	tally.ops++;
}

static void close_all(struct graph *g, unsigned int *seed)
{
	int order[MAXOBJ], i;

	for (i = 0; i < g->n; i++)
		order[i] = i;
	for (i = g->n - 1; i > 0; i--) {
		int j = rnd(seed, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	while (g->nextra)
		close(g->extra[--g->nextra]);
	for (i = 0; i < g->n; i++) {
		struct obj *o = &g->o[order[i]];

		if (o->kind == RING) {
			if (o->fd[0] >= 0)
				io_uring_queue_exit(&o->ring);
			if (o->pipe_r >= 0)
				close(o->pipe_r);
		} else {
			if (o->fd[0] >= 0)
				close(o->fd[0]);
			if (o->fd[1] >= 0)
				close(o->fd[1]);
		}
		tally.ops++;
	}
}

static void one_graph(unsigned int *seed, int w, int id)
{
	struct graph g;
	int i, edges;

	g.n = 2 + rnd(seed, MAXOBJ - 1);
	g.nextra = 0;
	for (i = 0; i < g.n; i++)
		make_obj(&g.o[i], seed, w, id * MAXOBJ + i);
	edges = rnd(seed, 3 * g.n);
	for (i = 0; i < edges; i++)
		add_edge(&g, seed);
	close_all(&g, seed);
}

/* A worker: graphs until its share of ops is done; some in a child that
 * exits with them open or is SIGKILLed half-way.
 */
static void worker(int w, unsigned int seed, unsigned long budget, int report)
{
	int id = 0;

	while (tally.ops < budget) {
		if (rnd(&seed, 16) == 0) {
			unsigned int cseed = seed + id;
			int status = 0, built[2];
			char how = 0;
			pid_t pid;

			if (pipe(built))
				_exit(1);
			pid = fork();
			if (!pid) {
				struct graph g;
				int i;

				close(built[0]);
				g.n = 2 + rnd(&cseed, MAXOBJ - 1);
				g.nextra = 0;
				for (i = 0; i < g.n; i++)
					make_obj(&g.o[i], &cseed, w, 100000 + id * MAXOBJ + i);
				for (i = 0; i < 3 * g.n; i++)
					add_edge(&g, &cseed);
				/* 'k': wait to be killed, 'e': exit; all of it open */
				how = rnd(&cseed, 2) ? 'k' : 'e';
				if (write(built[1], &how, 1) != 1 || how == 'k')
					pause();
				_exit(0);
			}
			close(built[1]);
			/* half the time, kill it half-way through its graph */
			if (rnd(&seed, 2) && read(built[0], &how, 1) != 1)
				how = 0;
			if (how != 'e')
				kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(built[0]);
			count(WIFSIGNALED(status) ? D_CHILD_KILLED : D_CHILD_EXITED, 1);
			tally.ops += 8;
		} else {
			one_graph(&seed, w, id);
		}
		id++;
	}
	if (write(report, &tally, sizeof(tally)) != sizeof(tally))
		_exit(1);
	_exit(0);
}

static const char * const slabs[USCM_NSLABS] = USCM_SLABS;
static int slab_i;

static long slab_count(void)
{
	return uscm_slab_objects(slabs[slab_i]);
}

/* Objects each slab holds above its baseline once the GC is done. */
static int slabs_left(const long *base, long *left)
{
	int bad = 0;

	for (slab_i = 0; slab_i < USCM_NSLABS; slab_i++) {
		left[slab_i] = base[slab_i] < 0 ? 0 :
			uscm_wait_le(slab_count, base[slab_i]) - base[slab_i];
		bad |= left[slab_i] != 0;
	}
	return bad;
}

static long cmdline_long(const char *key, long def)
{
	char buf[1024] = "", *p;
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	p = strstr(buf, key);
	return p ? strtol(p + strlen(key), NULL, 10) : def;
}

int main(void)
{
	long total_ops = cmdline_long("uscm_stress_ops=", 40000);
	unsigned int seed = cmdline_long("uscm_stress_seed=", 1);
	long batch_ops = 20000, socks = uscm_unix_sockets(), files = uscm_file_nr();
	struct rlimit rl = { 65536, 65536 };
	unsigned long done = 0;
	struct tally sum = { 0 };
	char kinds[512] = "";
	int k, missing = 0;
	long slab_base[USCM_NSLABS], slab_left[USCM_NSLABS];
	int batch = 0, bad = 0;
	struct timespec t0, t1;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s, seed %u, %ld ops in batches of %ld over %d workers\n",
		       uscm_kernel_name(), seed, total_ops, batch_ops, WORKERS);
	setrlimit(RLIMIT_NOFILE, &rl);
	signal(SIGPIPE, SIG_IGN);
	ring_fd_ok = uscm_ring_send_expect() == 0;
	for (slab_i = 0; slab_i < USCM_NSLABS; slab_i++) {
		slab_base[slab_i] = slab_count();
		ksft_print_msg("slab %s: %ld objects at baseline\n", slabs[slab_i],
			       slab_base[slab_i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (batch = 0; done < (unsigned long)total_ops; batch++) {
		int rep[2], w;
		long left_s, left_f, inflight, vertices;

		if (pipe(rep))
			ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
		for (w = 0; w < WORKERS; w++) {
			if (!fork()) {
				close(rep[0]);
				worker(w, seed * 7919 + batch * WORKERS + w,
				       batch_ops / WORKERS, rep[1]);
			}
		}
		close(rep[1]);
		for (w = 0; w < WORKERS; w++) {
			struct tally t;
			int k;

			if (read(rep[0], &t, sizeof(t)) != sizeof(t))
				continue;
			done += t.ops;
			for (k = 0; k < NDONE; k++)
				sum.done[k] += t.done[k];
		}
		close(rep[0]);
		while (wait(NULL) > 0)
			;
		uscm_kick_gc();
		left_s = uscm_wait_le(uscm_unix_sockets, socks) - socks;
		left_f = uscm_wait_le(uscm_file_nr, files + USCM_FILE_NR_SLACK) - files;
		inflight = uscm_gc_stat("inflight");
		vertices = uscm_gc_stat("vertices");
		if (slabs_left(slab_base, slab_left) || left_s ||
		    left_f > USCM_FILE_NR_SLACK || inflight > 0 || vertices > 0) {
			ksft_print_msg("LEAK at seed %u batch %d: sockets %+ld, files %+ld, inflight %ld, vertices %ld, slabs %s %+ld %s %+ld %s %+ld\n",
				       seed, batch, left_s, left_f, inflight, vertices,
				       slabs[0], slab_left[0], slabs[1], slab_left[1],
				       slabs[2], slab_left[2]);
			bad++;
			/* measure the next batch against what this one left */
			socks += left_s;
			files = uscm_file_nr();
			for (slab_i = 0; slab_i < USCM_NSLABS; slab_i++)
				slab_base[slab_i] += slab_left[slab_i];
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (bad && uscm_kernel() == KERNEL_STOCK)
		ksft_test_result_xfail("%lu ops, %d batches, seed %u: %d batches leak on stock (F19)\n",
				       done, batch, seed, bad);
	else
		ksft_test_result(!bad, "%lu create/link/close ops, %d batches, seed %u: sockets, files, slabs and GC graph at baseline after every batch\n",
				 done, batch, seed);
	ksft_print_msg("%.0f ops/s\n",
		       done / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
	ksft_test_result(done >= (unsigned long)total_ops, "ran the requested %ld ops\n",
			 total_ops);
	/* ring fds go into SCM_RIGHTS only where the kernel takes them */
	for (k = 0; k < NDONE; k++) {
		int want = k != D_SCM_RING || ring_fd_ok;

		snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds), "%s%s %lu",
			 k ? ", " : "", done_names[k], sum.done[k]);
		missing += want != !!sum.done[k];
	}
	ksft_print_msg("succeeded: %s\n", kinds);
	ksft_test_result(!missing, "every kind of operation ran as this kernel allows (%d kinds)\n",
			 NDONE);
	ksft_finished();
}
