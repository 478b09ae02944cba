#!/usr/bin/env python3
"""release-blame.py PATCH FILE HUNK VERSION [CHANGELOG]: name the upstream
change that most likely moved the context of hunk HUNK (1-based, as quilt
numbers them) of PATCH in FILE, when the series fails on point release
VERSION.

The candidates are the upstream stable changes Debian lists in its
changelog (linux-source-6.1's changelog.Debian.gz) for the releases after
VERSION up to the base: changes the base has and VERSION lacks.  Those of
the file's subsystem are kept; the one whose title names most of the
hunk's context (identifiers, then their parts)
comes first.  Prints one line: 'RELEASE: "TITLE"' (and how many
candidates there were), or why none could be named."""
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


def score(title, names):
    """Whole identifiers of the hunk a title names count 10, their parts 1."""
    words = set(re.findall(r'[A-Za-z_][A-Za-z0-9_]+', title))
    parts = {p.lower() for n in names for p in n.split('_') if len(p) > 2}
    whole = sum(10 for w in words if '_' in w.strip('_()') and w.strip('()') in names)
    return whole + len({w.lower() for w in words if len(w) > 2} & parts)


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
    changelog = sys.argv[5] if len(sys.argv) > 5 else CHANGELOG
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
    names = identifiers(hunk_text(patch, path, number))
    # best score first; among equals the oldest, the first to move the context
    ranked = sorted(reversed(ours), key=lambda c: -score(c[1], names))
    best, n = ranked[0], len(ranked)
    area = 'io_uring' if path.startswith('io_uring') else 'af_unix'
    if score(best[1], names) == 0:
        print('none of the %d %s changes since %s names the hunk\'s context; the first: '
              '%s "%s"' % (n, area, version, best[0], best[1]))
    else:
        print('%s: "%s"%s' % (best[0], best[1], ' (best of %d %s changes since %s)' %
                              (n, area, version) if n > 1 else ''))
    return 0


sys.exit(main())
