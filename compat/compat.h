/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shims for the GC inspector, each gated on a fact probed in
 * Kbuild.include.  6.1.192 with the series needs none today; the probe
 * there is what keeps a wrong tree from building a broken module.
 */
#ifndef URING_SCM_COMPAT_H
#define URING_SCM_COMPAT_H
#endif
