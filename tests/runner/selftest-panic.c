// SPDX-License-Identifier: GPL-2.0
/* Runner self-test: a kernel crash must turn the run red. */
#include "../lib/uscm.h"

int main(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	ksft_print_header();
	ksft_set_plan(1);
	if (fd < 0 || write(fd, "c", 1) != 1)
		ksft_exit_fail_msg("sysrq-trigger: %s\n", strerror(errno));
	for (;;)
		pause();
}
