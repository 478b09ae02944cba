// SPDX-License-Identifier: GPL-2.0
/*
 * F19: an SCC whose members end with different lowlinks was taken for
 * alive, so its sockets were never freed.  Pairs 0..n-1; an edge a->b
 * queues pair a's end 0 at pair b's end 0.  Everything is closed, so every
 * graph is garbage and must be collected in full.
 *
 * stock: the literal graph leaks (XFAIL) and some of the exhaustive ones
 *        too; patched, refusing: nothing leaks.
 */
#include "lib/uscm.h"

#define MAXV 4
#define BATCH 48

struct graph {
	int nv, ne;
	int edge[MAXV * MAXV][2];
};

static int build(const struct graph *g, int type)
{
	int sp[MAXV][2], i, err = 0;

	for (i = 0; i < g->nv; i++)
		if (socketpair(AF_UNIX, type, 0, sp[i]))
			ksft_exit_fail_msg("socketpair: %s\n", strerror(errno));
	for (i = 0; i < g->ne && !err; i++)
		err = uscm_send_fd(sp[g->edge[i][1]][1], sp[g->edge[i][0]][0]);
	for (i = 0; i < g->nv; i++) {
		close(sp[i][0]);
		close(sp[i][1]);
	}
	return err;
}

/* Build graphs, collect, and return how many sockets stayed behind. */
static long run_batch(const struct graph *gs, int n, int type)
{
	long socks = uscm_unix_sockets();
	int i;

	for (i = 0; i < n; i++)
		if (build(&gs[i], type))
			ksft_exit_fail_msg("sendmsg: %s\n", strerror(errno));
	uscm_kick_gc();
	return uscm_wait_le(uscm_unix_sockets, socks) - socks;
}

static void literal(int type, const char *name)
{
	/* 0->1, 1->2, 2->1, 1->0, then the same on 3, 4 and 5 */
	struct graph g[2] = {
		{ 3, 4, { { 0, 1 }, { 1, 2 }, { 2, 1 }, { 1, 0 } } },
		{ 3, 4, { { 0, 1 }, { 1, 2 }, { 2, 1 }, { 1, 0 } } },
	};
	long left = run_batch(g, 2, type);

	if (uscm_kernel() == KERNEL_STOCK && left > 0)
		ksft_test_result_xfail("%s: F19 graph: %ld sockets leak on stock\n", name, left);
	else
		ksft_test_result(left == 0, "%s: F19 graph collected (%ld sockets left)\n",
				 name, left);
}

static void shuffle(struct graph *g, unsigned int *seed)
{
	int i;

	for (i = g->ne - 1; i > 0; i--) {
		int j = rand_r(seed) % (i + 1), a = g->edge[i][0], b = g->edge[i][1];

		g->edge[i][0] = g->edge[j][0];
		g->edge[i][1] = g->edge[j][1];
		g->edge[j][0] = a;
		g->edge[j][1] = b;
	}
}

/* Every edge set on 3 vertices, each in 3 shuffled send orders. */
static void exhaustive(int type, const char *name)
{
	struct graph batch[BATCH];
	unsigned int seed = 19;
	long left = 0;
	int set, order, n = 0, graphs = 0, leaky = 0;

	for (set = 1; set < 1 << 9; set++) {
		for (order = 0; order < 3; order++) {
			struct graph *g = &batch[n++];
			int e;

			g->nv = 3;
			g->ne = 0;
			for (e = 0; e < 9; e++) {
				if (set & (1 << e)) {
					g->edge[g->ne][0] = e / 3;
					g->edge[g->ne][1] = e % 3;
					g->ne++;
				}
			}
			shuffle(g, &seed);
			graphs++;
			if (n == BATCH || (set == (1 << 9) - 1 && order == 2)) {
				long l = run_batch(batch, n, type);

				left += l;
				leaky += l > 0;
				n = 0;
			}
		}
	}
	if (uscm_kernel() == KERNEL_STOCK && left > 0)
		ksft_test_result_xfail("%s: %d graphs, %d batches leak %ld sockets on stock\n",
				       name, graphs, leaky, left);
	else
		ksft_test_result(left == 0, "%s: %d graphs (seed 19) collected, %ld sockets left\n",
				 name, graphs, left);
}

/* Random 4-vertex graphs, fixed seed. */
static void random4(int type, const char *name)
{
	struct graph batch[BATCH];
	unsigned int seed = 4;
	long left = 0;
	int b, i;

	for (b = 0; b < 20; b++) {
		for (i = 0; i < BATCH; i++) {
			struct graph *g = &batch[i];
			int e;

			g->nv = MAXV;
			g->ne = 0;
			for (e = 0; e < MAXV * MAXV; e++) {
				if (rand_r(&seed) % 3 == 0) {
					g->edge[g->ne][0] = e / MAXV;
					g->edge[g->ne][1] = e % MAXV;
					g->ne++;
				}
			}
			shuffle(g, &seed);
		}
		left += run_batch(batch, BATCH, type);
	}
	if (uscm_kernel() == KERNEL_STOCK && left > 0)
		ksft_test_result_xfail("%s: random 4-vertex graphs leak %ld sockets on stock\n",
				       name, left);
	else
		ksft_test_result(left == 0, "%s: %d random 4-vertex graphs (seed 4), %ld left\n",
				 name, 20 * BATCH, left);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(6);
	ksft_print_msg("kernel: %s\n", uscm_kernel_name());
	literal(SOCK_DGRAM, "dgram");
	literal(SOCK_STREAM, "stream");
	exhaustive(SOCK_DGRAM, "dgram");
	exhaustive(SOCK_STREAM, "stream");
	random4(SOCK_DGRAM, "dgram");
	random4(SOCK_STREAM, "stream");
	ksft_finished();
}
