#!/usr/bin/env python3
"""ktap-summary.py KTAP [GUEST_STATUS]: fold the guest's nested KTAP into one
line "N passed, N failed, N skipped" and an exit code (0 only if nothing
failed and the guest finished).  A program that failed without a failing
case of its own (crash, timeout, no plan or a short one) counts as one
failure."""
import re
import sys

CASE = re.compile(r'^(\s*)(not ok|ok) (\d+)( - |\s)?([^#]*)(#\s*(\S+).*)?$')
PLAN = re.compile(r'^(\s*)1\.\.(\d+)')


def main():
    lines = open(sys.argv[1], errors='replace').read().splitlines()
    status = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    passed = failed = skipped = 0
    inner_fail = inner_seen = 0
    inner_plan = None
    done = False
    failures = []
    for line in lines:
        if line.startswith('# boottest: done'):
            done = True
        m = PLAN.match(line)
        if m and m.group(1):
            inner_plan = int(m.group(2))
            continue
        m = CASE.match(line)
        if not m:
            continue
        nested = bool(m.group(1))
        ok = m.group(2) == 'ok'
        directive = (m.group(7) or '').upper()
        if nested:
            inner_seen += 1
            if directive == 'SKIP':
                skipped += 1
            elif ok:
                passed += 1
            else:
                failed += 1
                inner_fail += 1
                failures.append(line.strip())
            continue
        if directive == 'SKIP' and ok and not inner_seen:
            skipped += 1
            inner_plan = None
            continue
        short = inner_plan is None or inner_seen < inner_plan
        if (not ok or short) and not inner_fail:
            failed += 1
            failures.append(line.strip() + (' (plan %s, ran %d)' % (inner_plan, inner_seen) if short else ''))
        inner_fail = inner_seen = 0
        inner_plan = None
    if not done:
        failed += 1
        failures.append('guest never finished the run (status %d)' % status)
    elif status and not failed:
        failed += 1
        failures.append('guest status %d' % status)
    for f in failures:
        print('# FAIL: ' + f)
    print('# %d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


sys.exit(main())
