// SPDX-License-Identifier: GPL-2.0
/* Runner self-test: a case that fails must turn the run red. */
#include "../lib/uscm.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(2);
	ksft_test_result_pass("a passing case\n");
	ksft_test_result_fail("a deliberately failing case\n");
	ksft_finished();
}
