// SPDX-License-Identifier: GPL-2.0
/* Runner self-test: a program that never returns must turn the run red. */
#include "../lib/uscm.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(1);
	for (;;)
		pause();
}
