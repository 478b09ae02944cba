#!/usr/bin/env python3
"""matrix.py STOCK.ktap REFUSING.ktap PATCHED.ktap: one table of every case
on the three kernels.  Each case asserts what it expects of the kernel it
runs on, so a cell reads: ok (as declared), xfail (declared known failure,
stock only), skip (declared not applicable), FAIL (differs from what was
declared).  A case present on one kernel and missing on another is a
difference nobody declared: it fails too.  Exit 0 only with no FAIL.
matrix.py --same A.ktap B.ktap: exit 0 only if every case ends alike."""
import sys

from ktapcases import programs


def cells(path):
    """{(program, case number): cell}; case 0 is the program's own verdict
    where it has no cases or failed without a failing case."""
    out = {}
    for prog, (ok, cases) in programs(path).items():
        for num, cell, _ in cases:
            out[(prog, num)] = cell
        if not cases or not ok:
            out[(prog, 0)] = 'ok' if ok else 'FAIL'
    return out


def same(a, b):
    """--same A B: every case of run B ends as in run A (the off build as stock).
    A stock bug a case declares (xfail) may or may not show in one run, so
    xfail and ok count as one outcome here."""
    def norm(c):
        return {k: 'ok' if v == 'xfail' else v for k, v in c.items()}
    ca, cb = norm(cells(a)), norm(cells(b))
    diff = [k for k in sorted(set(ca) | set(cb)) if ca.get(k) != cb.get(k)]
    for k in diff:
        print('%-34s %4s  %-8s %-8s' % (k[0], k[1] or '-', ca.get(k, 'missing'),
                                        cb.get(k, 'missing')))
    print('# same: %d cases, %d end differently' % (len(set(ca) | set(cb)), len(diff)))
    return 1 if diff or not ca else 0


def main():
    if sys.argv[1] == '--same':
        return same(sys.argv[2], sys.argv[3])
    kernels = ['stock', 'refusing', 'patched']
    runs = [cells(p) for p in sys.argv[1:4]]
    keys = sorted(set().union(*runs))
    bad = 0
    print('%-34s %4s  %-8s %-8s %-8s' % ('test', 'case', *kernels))
    for key in keys:
        row = [r.get(key, 'missing') for r in runs]
        if any(c in ('FAIL', 'missing') for c in row) or \
           any(c == 'xfail' for c in row[1:]):
            bad += 1
            row = [c if c != 'missing' else 'MISSING' for c in row]
        print('%-34s %4s  %-8s %-8s %-8s' % (key[0], key[1] or '-', *row))
    print('# matrix: %d cases, %d differ from what they declare' % (len(keys), bad))
    return 1 if bad else 0


sys.exit(main())
