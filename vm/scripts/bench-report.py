#!/usr/bin/env python3
"""bench-report.py DIR PAIRS [PHASES.tsv]: the table of patched/stock
ratios from the A/B boots in DIR (stock-N.ktap, patched-N.ktap; under an
instruction clock icount-stock-N.ktap, icount-patched-N.ktap), the P4
rows (DIR/p4.tsv, boot-to-first-test from the KTAP, the latest cold builds
from PHASES.tsv), and DIR/scaling.png."""
import os
import re
import statistics
import subprocess
import sys
import time

d, pairs = sys.argv[1], int(sys.argv[2])
M = re.compile(r'# metric (\S+) (\S+) (\S+)')


def load(path):
    out = {}
    for line in open(path, errors='replace'):
        m = M.search(line)
        if m:
            out[m.group(1)] = (float(m.group(2)), m.group(3))
    return out


runs = {k: [load(os.path.join(d, '%s-%d.ktap' % (k, i))) for i in range(1, pairs + 1)]
        for k in ('stock', 'patched')}
# the P1, P2 and SCM programs again under an instruction clock (QEMU -icount)
icount = {k: [load(p) for p in (os.path.join(d, 'icount-%s-%d.ktap' % (k, i))
                                 for i in range(1, pairs + 1)) if os.path.exists(p)]
          for k in ('stock', 'patched')}
# (metric, target kind, bound): 'ge' ratio >= bound, 'le' ratio <= bound.
# Every target is judged on the instruction clock, where a boot's figure
# is the work the guest does.  The wall clock of two kernel builds under
# TCG also differs by where hot code sits: the patched register loop ran
# 1.25x slower than stock's with the same instructions, because two of its
# return addresses share a slot of QEMU's TB jump cache; 32 bytes of
# padding before it (in cold text) made it as fast as stock's (README,
# Benchmarks).  The wall-clock figures are shown with their spread.
TARGETS = {
    'p1_fixed_iops': ('ge', 0.99), 'p1_fixed_gain': ('ge', 0.99),
    'p2_reg_files_1000': ('le', 1.05), 'p2_reg_files_64000': ('le', 1.05),
    'p2_reg_files_1000000': ('le', 1.05),
    'p2_reg_sockets_1000': ('le', 1.5), 'p2_reg_sockets_64000': ('le', 1.5),
    'p3_scm_acyclic_rate': ('ge', 0.98),
}
unmet = 0


def natural(n):
    """numbers in names sort by value: p3_gc_pass_20000 before p3_gc_pass_100000"""
    return [int(x) if x.isdigit() else x for x in re.split(r'(\d+)', n)]


def table(runs, targets, clock):
    """one row per metric: medians, the median per-pair ratio, its spread"""
    global unmet
    names = sorted(set(runs['stock'][0]) | set(runs['patched'][0]), key=natural)
    for n in names:
        s = [r[n][0] for r in runs['stock'] if n in r]
        p = [r[n][0] for r in runs['patched'] if n in r]
        unit = (runs['patched'][0].get(n) or runs['stock'][0].get(n))[1]
        if not (s and p):
            print('| %s%s | %s | %s | %.4g | - | - | - | - |' % (
                n, clock, unit, 'n/a on stock' if not s else '%.4g' % statistics.median(s),
                statistics.median(p) if p else float('nan')))
            continue
        ratios = [b / a if a else float('nan') for a, b in zip(s, p)]
        rm = statistics.median(ratios)
        tgt, met = '-', '-'
        t = targets.get(n)
        if t:
            ok = rm >= t[1] if t[0] == 'ge' else rm <= t[1]
            unmet += not ok
            tgt, met = ('>= %.2f' if t[0] == 'ge' else '<= %.2f') % t[1], 'yes' if ok else 'NO'
        print('| %s%s | %s | %.4g | %.4g | %.3f | %.3f..%.3f | %s | %s |' % (
            n, clock, unit, statistics.median(s), statistics.median(p), rm,
            min(ratios), max(ratios), tgt, met))
    return names


print('| figure | unit | stock | patched | patched/stock | spread | target | met |')
print('|---|---|---|---|---|---|---|---|')


def missing(what, target):
    """a figure no boot printed: a target it carries is not met"""
    print('| %s | - | - | - | - | - | %s | %s |' % (
        what, 'not measured' if target else '-', 'NO' if target else '-'))
    return 1 if target else 0


table(runs, {}, '')
icnames = table(icount, TARGETS, ', instruction clock') if icount['stock'] and icount['patched'] else []
for n in sorted(set(TARGETS) - set(icnames)):
    unmet += missing(n, True)


# The GC's figures (bench-p3-gc, bench-sent-rings) run under the
# instruction clock only: a pass is judged by the work it does, which
# is what "grows linearly" and "a ring cycle costs 1.5x a pair" are about.
P3 = icount


def med(k, n, src=runs):
    v = [r[n][0] for r in src[k] if n in r]
    return statistics.median(v) if v else None


# where a socket's cost went: into a ring already sent (patched only),
# against the plain register of the same sockets on stock (information)
for n, what in (('p2_reg_sockets_sent_64000', 'register + unregister, ring sent'),
                ('p2_first_send_64000', 'first send of the ring')):
    p, s = med('patched', n, P3), med('stock', 'p2_reg_sockets_64000', P3)
    if p and s:
        print('| 64k sockets, %s (patched) / register (stock) | ms | %.4g | %.4g | %.3f | - | - | - |' % (
            what, s, p, p / s))


def in_boot(k, num, den, src=P3):
    """num / den within each boot of kernel k: a slow spell of the host
    that slows a whole boot cancels out"""
    return [r[num][0] / r[den][0] for r in src[k] if num in r and den in r and r[den][0]]


# a ring cycle against a socket-pair cycle, on the patched kernel under
# the instruction clock, as the median of the ratios within each boot:
# the GC's own pass (the target), and until everything is freed (the
# ring's own asynchronous teardown included; for information)
for k in (1000, 10000):
    for what, fmt, target in (('GC pass', 'p3_gc_%s_cycle_%d', True),
                              ('until freed', 'p3_collect_%s_cycle_%d', False)):
        ratios = in_boot('patched', fmt % ('ring', k), fmt % ('pair', k))
        if not ratios:
            unmet += missing('ring/pair cycle cost, %s, K=%d' % (what, k), target)
            continue
        rm = statistics.median(ratios)
        ok = rm <= 1.5
        if target:
            unmet += not ok
        print('| ring/pair cycle cost, %s, K=%d | x | - | %.3g / %.3g us | %.3f | %.3f..%.3f | %s | %s |' % (
            what, k, med('patched', fmt % ('ring', k), P3), med('patched', fmt % ('pair', k), P3), rm,
            min(ratios), max(ratios), '<= 1.50' if target else '-',
            ('yes' if ok else 'NO') if target else '-'))
# GC pass scaling under the instruction clock, as the median of the
# growth within each boot.  The target: growth from 10k to 100k vertices,
# per 10x, within 0.5..2 on the patched kernel (stock shown beside it).
# For information, growth from 50k to 100k per 2x.
sizes = sorted({int(n.rsplit('_', 1)[1]) for r in P3['patched'] for n in r
                if n.startswith('p3_gc_pass_')})
dat = os.path.join(d, 'scaling.dat')
with open(dat, 'w') as f:
    for v in sizes:
        f.write('%d %s %s\n' % (v, med('stock', 'p3_gc_pass_%d' % v, P3),
                                 med('patched', 'p3_gc_pass_%d' % v, P3)))
for lo, hi, target in ((10000, 100000, True), (50000, 100000, False)):
    for k in ('stock', 'patched'):
        growth = in_boot(k, 'p3_gc_pass_%d' % hi, 'p3_gc_pass_%d' % lo)
        held = target and k == 'patched'
        if not growth:
            unmet += missing('GC pass slope %dk->%dk (%s)' % (lo // 1000, hi // 1000, k), held)
            continue
        a, b = med(k, 'p3_gc_pass_%d' % lo, P3), med(k, 'p3_gc_pass_%d' % hi, P3)
        slope = (b - a) / ((hi - lo) / 1000.0)
        lin = statistics.median(growth) / (hi / lo)
        ok = 0.5 <= lin <= 2
        print('| GC pass slope %dk->%dk (%s) | ms per 1k vertices | - | %.3g | growth / %d = %.2f | %.2f..%.2f | %s | %s |' % (
            lo // 1000, hi // 1000, k, slope, hi // lo, lin, min(growth) / (hi / lo),
            max(growth) / (hi / lo), 'linear (0.5..2)' if held else '-',
            ('yes' if ok else 'NO') if held else '-'))
        unmet += held and not ok
# P4, the package itself (seconds; no target)
UPTIME = re.compile(r'# boottest: \S+ took ([0-9.]+)\.\.')


def first_test(path):
    for line in open(path, errors='replace'):
        m = UPTIME.search(line)
        if m:
            return float(m.group(1))
    return None


boot = {k: [t for t in (first_test(os.path.join(d, '%s-%d.ktap' % (k, i)))
                        for i in range(1, pairs + 1)) if t is not None]
        for k in ('stock', 'patched')}
if boot['stock'] and boot['patched']:
    bs, bp = statistics.median(boot['stock']), statistics.median(boot['patched'])
    print('| P4 boot to first test (guest uptime) | s | %.2f | %.2f | %.3f | - | - | - |' % (
        bs, bp, bp / bs))
if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
    cold = {}
    for line in open(sys.argv[3]):
        f = line.rstrip('\n').split('\t')
        m = len(f) == 4 and f[3] == '0' and re.match(r'compile \((stock|patched|patched-debug), cold\)', f[1])
        if m:
            cold[m.group(1)] = (float(f[2]), f[0])
    for k in ('stock', 'patched', 'patched-debug'):
        if k in cold:
            print('| P4 cold build, %s (ccache empty; %s) | s | - | %.0f | - | - | - | - |' % (
                k, time.strftime('%Y-%m-%d', time.gmtime(int(cold[k][1]))), cold[k][0]))
p4 = os.path.join(d, 'p4.tsv')
if os.path.exists(p4):
    for line in open(p4):
        name, value, unit = line.split()
        print('| %s | %s | - | %s | - | - | - | - |' % (
            {'p4_rebuild_one_patch': 'P4 rebuild after one patch changes (build.sh)',
             'p4_initramfs': 'P4 initramfs build (dracut, uncached)'}.get(name, name), unit, value))
plot = os.path.join(d, 'scaling.png')
subprocess.run(['gnuplot', '-e', """
set terminal png size 1000,450; set output '%s'; set multiplot layout 1,2;
set logscale x; set xlabel 'graph vertices'; set key left top; set grid;
set logscale y; set ylabel 'GC pass (ms)'; set title 'one pass (instruction clock)';
plot '%s' using 1:2 with linespoints title 'stock 6.1.192', '' using 1:3 with linespoints title 'patched';
unset logscale y; set ylabel 'ns per vertex'; set yrange [0:*]; set title 'per vertex'; set key right bottom;
plot '%s' using 1:($2*1e6/$1) with linespoints title 'stock 6.1.192', '' using 1:($3*1e6/$1) with linespoints title 'patched';
unset multiplot
""" % (plot, dat, dat)], check=False)
print('\n# %d A/B pairs (wall clock), %d (instruction clock); plot: %s; %d targets not met' % (
    pairs, min(len(icount['stock']), len(icount['patched'])), plot, unmet))
sys.exit(1 if unmet else 0)
