#!/usr/bin/env python3
"""held.py OUTDIR [--readme README.md]: the table of what was tried and
what held, from the KTAP and console logs of the latest runs in OUTDIR
(latest-{stock,patched-refusing,patched,patched-debug}.ktap, and the
latest `make stress` run).  Rows: load, exit cleanup, faults injected,
bad input, races, cycles, kernel reports.  With --readme, the table
replaces what stands between the 'held:begin' and 'held:end' markers.

A cell says what the run saw against what the case declares: ok, xfail
(declared known failure), skip (declared not applicable), FAIL; a
summed row gives counts.  '-' is a run that is not there."""
import datetime
import os
import re
import sys

from ktapcases import programs

SPLAT = re.compile(r'(BUG|WARNING|INFO): |KASAN|kmemleak: [0-9]+ new|unreferenced object|'
                   r'Kernel panic|Oops|general protection|possible (circular|recursive) '
                   r'locking|inconsistent lock state|suspicious RCU usage|Call Trace')
RUNS = [('stock', 'latest-stock'), ('refusing', 'latest-patched-refusing'),
        ('patched', 'latest-patched'), ('patched debug', 'latest-patched-debug')]
# area, programs (prefixes), one row per case (else one summed row)
AREAS = [
    ('load', ['stress-cycles'], True),
    ('exit cleanup', ['ring-exit-'], True),
    ('faults injected', ['fault-inject'], True),
    ('bad input', ['bad-input', 'ring-register-errors', 'ring-inflight-limit'], False),
    ('races with the GC', ['race-'], False),
    ('cycles collected', ['ring-', 'scm-'], False),
]


def cases(path):
    """{program: [(cell, text)]} of one KTAP file; a program that failed
    without a failing case of its own gets a FAIL row."""
    out = {}
    for prog, (ok, got) in programs(path).items():
        rows = [(cell, text) for _, cell, text in got] or \
            [('ok' if ok else 'FAIL', '(whole program)')]
        if not ok and all(c != 'FAIL' for c, _ in rows):
            rows.append(('FAIL', 'the program failed'))
        out[prog] = rows
    return out


def reports(console):
    """The cell for the kernel report lines on a console log."""
    try:
        n = sum(1 for line in open(console, errors='replace') if SPLAT.search(line))
    except (OSError, TypeError):
        return '-'
    return 'none' if n == 0 else 'FAIL: %d lines' % n


def summed(cells):
    counts = {}
    for c in cells:
        counts[c] = counts.get(c, 0) + 1
    return ', '.join('%d %s' % (n, c) for c, n in sorted(counts.items())) or '-'


def in_area(prog, prefixes, taken):
    return prog not in taken and any(prog.startswith(p) for p in prefixes)


def table(outdir):
    runs = []
    for name, base in RUNS:
        path = os.path.join(outdir, base + '.ktap')
        if os.path.exists(path):
            real = os.path.realpath(path)
            runs.append((name, cases(real), real[:-len('.ktap')] + '.console',
                         os.path.basename(real)))
        else:
            runs.append((name, None, None, None))
    # the patched kernel's words say what was tried (its counts are the full ones)
    ref = runs[2][1] or next((r[1] for r in reversed(runs) if r[1]), None) or {}
    rows, taken = [], set()
    for area, prefixes, per_case in AREAS:
        progs = sorted(p for p in set().union(*[r[1] or {} for r in runs])
                       if in_area(p, prefixes, taken))
        taken.update(progs)
        if not progs:
            continue
        if per_case:
            for prog in progs:
                for i, (_, text) in enumerate(ref.get(prog, [])):
                    cells = []
                    for _, got, _, _ in runs:
                        c = (got or {}).get(prog)
                        cells.append(c[i][0] if c and i < len(c) else '-')
                    rows.append((area, '%s: %s' % (prog, text), cells))
        else:
            cells = []
            for _, got, _, _ in runs:
                if got is None:
                    cells.append('-')
                else:
                    cells.append(summed([c for p in progs for c, _ in got.get(p, [])]))
            n = sum(max(len((r[1] or {}).get(p, [])) for r in runs) for p in progs)
            rows.append((area, '%d cases in %s' % (n, ', '.join(progs)), cells))
    stress = sorted(f for f in os.listdir(outdir)
                    if re.match(r'patched-[0-9-]+-stress-cycles\.ktap$', f))
    if stress:
        long_run = cases(os.path.join(outdir, stress[-1])).get('stress-cycles', [])
        for cell, text in long_run:
            rows.append(('load (make stress)', 'stress-cycles: ' + text,
                         ['-', '-', cell, '-']))
        console = os.path.join(outdir, stress[-1][:-len('.ktap')] + '.console')
        rows.append(('load (make stress)', 'kernel reports on its whole console',
                     ['-', '-', reports(console), '-']))
    rep = [reports(console) for _, _, console, _ in runs]
    rows.append(('kernel reports', 'BUG, WARNING, KASAN, kmemleak, lockdep, RCU, panic '
                 'lines on the whole console', rep))
    lines = ['| area | what was tried | %s |' % ' | '.join(r[0] for r in runs),
             '|---|---|' + '---|' * len(runs)]
    for area, what, cells in rows:
        lines.append('| %s | %s | %s |' % (area, what.replace('|', '/'), ' | '.join(cells)))
    srcs = ', '.join(r[3] for r in runs if r[3])
    lines.append('')
    srcs = ', '.join(filter(None, [srcs, stress[-1] if stress else '']))
    lines.append('Generated by `vm/scripts/held.py` on %s from %s.' % (
        datetime.date.today().isoformat(), srcs or 'no run'))
    bad = any('FAIL' in c for _, _, cells in rows for c in cells)
    return '\n'.join(lines), bad


def main():
    outdir = sys.argv[1]
    text, bad = table(outdir)
    print(text)
    if '--readme' in sys.argv:
        readme = sys.argv[sys.argv.index('--readme') + 1]
        doc = open(readme).read()
        begin, end = '<!-- held:begin -->\n', '<!-- held:end -->'
        if begin not in doc or end not in doc:
            print('held.py: no held markers in %s' % readme, file=sys.stderr)
            return 1
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(readme, 'w').write(head + begin + text + '\n' + end + tail)
    return 1 if bad else 0


sys.exit(main())
