// SPDX-License-Identifier: GPL-2.0
/* Runner self-test: the control, a run that must be green. */
#include "../lib/uscm.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(2);
	ksft_test_result_pass("a passing case\n");
	ksft_test_result_skip("a skipped case\n");
	ksft_finished();
}
