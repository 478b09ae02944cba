#!/usr/bin/env python3
"""release-blame.py PATCH FILE HUNK VERSION [BASE_FILE RELEASE_FILE [CHANGELOG]]:
name the upstream
change that most likely moved the context of hunk HUNK (1-based, as quilt
numbers them) of PATCH in FILE, when the series fails on point release
VERSION.

The candidates are the upstream stable changes Debian lists in its
changelog (linux-source-6.1's changelog.Debian.gz) for the releases after
VERSION up to the base: changes the base has and VERSION lacks.  Those of
the file's subsystem are kept; the one whose title names most of what
the release has differently near the hunk (with BASE_FILE and
RELEASE_FILE: the lines around the hunk's place that differ between
them), else most of the hunk's context, comes first.  Prints one line: 'RELEASE: "TITLE"' (and how many
candidates there were), or why none could be named."""
import difflib
import gzip
import re
import sys

CHANGELOG = '/usr/share/doc/linux-source-6.1/changelog.Debian.gz'
SUBSYSTEM = [
    (re.compile(r'^net/unix/|^include/net/af_unix\.h|^include/net/scm\.h|^net/core/scm\.c'),
     re.compile(r'^(af_unix|af_unix/|net: unix|unix|scm)\b', re.I)),
    (re.compile(r'^io_uring/|^include/linux/io_uring'),
     re.compile(r'^io_uring\b', re.I)),
    (re.compile(r'^Documentation/'), re.compile(r'^(docs?|Documentation)\b', re.I)),
]


def hunk_text(patch, path, number):
    """The lines of hunk NUMBER of PATH's diff in PATCH."""
    hunks, cur, in_file = [], None, False
    for line in open(patch, errors='replace'):
        if line.startswith('+++ '):
            in_file = line[4:].split('\t')[0].strip().split('/', 1)[-1] == path
            cur = None
            continue
        if not in_file:
            continue
        if line.startswith('@@'):
            cur = [line]
            hunks.append(cur)
        elif cur is not None and line[:1] in ' +-':
            cur.append(line)
    return hunks[number - 1] if 0 < number <= len(hunks) else []


def identifiers(hunk):
    """Identifiers of the hunk's context (what the release must still have)."""
    names = set()
    for line in hunk:
        if line.startswith('+'):
            continue	# what the patch adds is not the release's context
        names.update(re.findall(r'\b[A-Za-z_][A-Za-z0-9_]{2,}\b', line))
    return names


def near_changes(hunk, base_file, release_file, margin=80):
    """Lines around the hunk's place in the base that the release lacks or
    has instead: (the first such base line, all of them)."""
    base = open(base_file, errors='replace').read().splitlines()
    rel = open(release_file, errors='replace').read().splitlines()
    ctx = [line[1:].rstrip('\n') for line in hunk[1:] if line[:1] in ' -']
    anchor = next((i for i in range(len(base))
                   if ctx and base[i:i + len(ctx)] == ctx), None)
    if anchor is None:	# an earlier patch changed it: take the longest line
        key = max(ctx, key=len) if ctx else ''
        anchor = next((i for i, line in enumerate(base) if line == key), 0)
    lo, hi = anchor - margin, anchor + len(ctx) + margin
    first, changed = None, []
    matcher = difflib.SequenceMatcher(None, base, rel, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == 'equal' or i2 < lo or i1 > hi:
            continue
        changed += base[i1:i2] + rel[j1:j2]
        if first is None:	# the first line there that says something
            first = next((line.strip() for line in base[i1:i2] + rel[j1:j2]
                          if re.search(r'[A-Za-z_]{4,}', line)), None)
    return first, changed


# parts every title and hunk of the area share: they tell nothing apart
COMMON = {'unix', 'af_unix', 'sock', 'socket', 'io_uring', 'uring', 'fix', 'the', 'and',
          'for', 'don', 'not', 'data', 'under', 'with', 'from', 'when', 'struct'}


def score(title, names):
    """Whole identifiers of the hunk a title names count 10, their parts 1."""
    words = set(re.findall(r'[A-Za-z_][A-Za-z0-9_]+', title))
    parts = {p.lower() for n in names for p in n.split('_') if len(p) > 2} - COMMON
    whole = sum(10 for w in words if '_' in w.strip('_()') and w.strip('()') in names)
    title_parts = {p.lower() for w in words for p in w.split('_') if len(p) > 2} - COMMON
    return whole + len(title_parts & parts)


def candidates(version, changelog):
    """(release, title) of every upstream change after VERSION."""
    out, release = [], None
    with gzip.open(changelog, 'rt', errors='replace') as f:
        for line in f:
            m = re.match(r'^linux \(([^)]+)\)', line)
            if m:
                release = m.group(1)
                if release == version:
                    break
                continue
            m = re.match(r'^\s+- (.+?)\s*$', line)
            if m and release:
                out.append((release, m.group(1)))
    return out


def main():
    patch, path, number, version = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    files = sys.argv[5:7] if len(sys.argv) > 6 else None
    changelog = sys.argv[7] if len(sys.argv) > 7 else CHANGELOG
    try:
        changes = candidates(version, changelog)
    except OSError as e:
        print('no changelog to read (%s)' % e.strerror)
        return 0
    subsystem = next((s for f, s in SUBSYSTEM if f.search(path)), None)
    if subsystem is None:
        print('no upstream subsystem known for %s' % path)
        return 0
    ours = [(r, t) for r, t in changes if subsystem.search(t)]
    if not ours:
        print('no %s change listed after %s' % (subsystem.pattern, version))
        return 0
    hunk = hunk_text(patch, path, number)
    names, where = identifiers(hunk), ''
    if files:
        try:
            first, changed = near_changes(hunk, *files)
        except OSError:
            first, changed = None, []
        if changed:
            names = identifiers([' ' + line for line in changed])
            where = '; changed near the hunk: "%s"' % (first or changed[0].strip())[:60]
    # best score first; among equals the oldest, the first to move the context
    ranked = sorted(reversed(ours), key=lambda c: -score(c[1], names))
    best, n = ranked[0], len(ranked)
    area = 'io_uring' if path.startswith('io_uring') else 'af_unix'
    if score(best[1], names) == 0:
        print('none of the %d %s changes since %s names what changed there; the first: '
              '%s "%s"%s' % (n, area, version, best[0], best[1], where))
    else:
        print('%s: "%s"%s%s' % (best[0], best[1], ' (best of %d %s changes since %s)' %
                                (n, area, version) if n > 1 else '', where))
    return 0


sys.exit(main())
