// SPDX-License-Identifier: GPL-2.0
/*
 * expect: run an outside suite and restate its result as KTAP with what
 * this package expects of the kernel it runs on.
 *
 *   expect tap SUITE STOCK_XFAIL...	SUITE prints TAP (kselftest harness);
 *					cases named in STOCK_XFAIL are known
 *					to fail on stock (F19), nowhere else
 *   expect ring-leak SUITE		liburing's test/ring-leak.c: exit 0,
 *					its sendmsg(ring fd) refused only
 *					where the kernel refuses, and every
 *					AF_UNIX socket returned afterwards
 */
#include "../lib/uscm.h"

static FILE *run(const char *path, int *status, int with_stderr)
{
	static char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s%s", path, with_stderr ? " 2>&1" : "");
	return popen(cmd, "r");
}

static int expected_fail(const char *name, int argc, char **argv)
{
	int i;

	for (i = 3; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

static int tap(int argc, char **argv)
{
	static char lines[512][512];
	char line[512], name[512];
	int status, n, i, cases = 0;
	FILE *f = run(argv[2], &status, 1);

	while (f && cases < 512 && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7) || line[0] == '#')
			snprintf(lines[cases++], sizeof(lines[0]), "%s", line);
	}
	status = f ? pclose(f) : -1;

	ksft_print_header();
	for (i = n = 0; i < cases; i++)
		n += lines[i][0] != '#';
	ksft_set_plan(n + 1);
	ksft_print_msg("kernel: %s, suite: %s\n", uscm_kernel_name(), argv[2]);
	for (i = 0; i < cases; i++) {
		int ok = !strncmp(lines[i], "ok ", 3), num;

		if (lines[i][0] == '#') {
			printf("%s", lines[i]);
			continue;
		}
		if (sscanf(lines[i] + (ok ? 3 : 7), "%d %511[^\n]", &num, name) != 2)
			snprintf(name, sizeof(name), "unparsed case %d", i);
		if (strstr(name, "# SKIP"))
			ksft_test_result_skip("%s\n", name);
		else if (uscm_kernel() == KERNEL_STOCK && expected_fail(name, argc, argv))
			ok ? ksft_test_result_fail("%s: expected to fail on stock (F19)\n", name)
			   : ksft_test_result_xfail("%s: fails on stock (F19)\n", name);
		else
			ksft_test_result(ok, "%s\n", name);
	}
	ksft_test_result(n > 0 && status != -1 && WIFEXITED(status),
			 "suite ran to its end with %d cases (status %d)\n", n, status);
	ksft_finished();
}

static int ring_leak(char **argv)
{
	long socks = uscm_unix_sockets(), left;
	char line[512];
	int status, refused = 0;
	FILE *f = run(argv[2], &status, 1);

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("kernel: %s, suite: %s\n", uscm_kernel_name(), argv[2]);
	while (f && fgets(line, sizeof(line), f)) {
		printf("# %s", line);
		refused += !!strstr(line, "sendmsg: Invalid argument");
	}
	status = f ? pclose(f) : -1;
	ksft_test_result(status == 0, "ring-leak exits 0 (status %d)\n", status);
	ksft_test_result(!!refused == (uscm_ring_send_expect_refused()),
			 "its sendmsg(ring fd) %s on %s\n", refused ? "is refused" : "succeeds",
			 uscm_kernel_name());
	uscm_kick_gc();
	left = uscm_wait_le(uscm_unix_sockets, socks) - socks;
	ksft_test_result(!left, "AF_UNIX sockets back at baseline after it (%+ld)\n", left);
	ksft_finished();
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "tap"))
		return tap(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "ring-leak"))
		return ring_leak(argv);
	fprintf(stderr, "usage: expect tap|ring-leak SUITE [STOCK_XFAIL...]\n");
	return 2;
}
