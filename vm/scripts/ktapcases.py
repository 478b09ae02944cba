"""ktapcases: the cases of a boottest KTAP log, for matrix.py and held.py.

programs(path) -> {program: (ok, [(number, cell, text)])}: each test
program's own verdict (True for "ok") and its cases, where a cell is ok,
xfail (declared known failure), skip (declared not applicable) or FAIL."""
import re

CASE = re.compile(r'^    (not ok|ok) (\d+)\s*(?:- )?(.*)$')
PROG = re.compile(r'^(not ok|ok) \d+ (\S+)')


def programs(path):
    out, pending = {}, []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = CASE.match(line)
        if m:
            ok, num, rest = m.groups()
            text, _, directive = rest.partition('#')
            d = directive.strip().upper()
            cell = 'xfail' if d.startswith('XFAIL') else 'skip' if d.startswith('SKIP') else \
                ('ok' if ok == 'ok' else 'FAIL')
            pending.append((int(num), cell, text.strip()))
            continue
        m = PROG.match(line)
        if m:
            out[m.group(2)] = (m.group(1) == 'ok', pending)
            pending = []
    return out
