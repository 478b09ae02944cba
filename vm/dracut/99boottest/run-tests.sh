#!/bin/sh
# Sourced by dracut's init (PID 1) from the cmdline hook; it never returns.
# KTAP for the host goes to ttyS1; the console (ttyS0) gets a copy.
# The guest status is 0 only when every test program passed.

mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
results=/dev/ttyS1
only=$(getarg boottest.only=)
tmo=$(getarg boottest.timeout=)
[ -n "$tmo" ] || tmo=300
# benchmarks: the clock counts instructions (QEMU -icount), so one short
# round gives an exact figure
if getargbool 0 boottest.icount; then export USCM_BENCH_ICOUNT=1; fi
for m in /usr/lib/boottest/modules/*.ko; do
	[ -f "$m" ] && insmod "$m"
done

# kmemleak (debug kernels): forget boot-time objects, report new ones at the end
leaks=/sys/kernel/debug/kmemleak
[ -w $leaks ] && echo clear >$leaks

# backport shell: a shell on the console, tests and the inspector at hand
if getargbool 0 boottest.shell; then
	export PATH=/usr/lib/boottest/tests:$PATH
	echo "boottest shell: tests in /usr/lib/boottest/tests; 'qemu-exit 0' leaves" >/dev/console
	sh -i </dev/console >/dev/console 2>&1
	exec /usr/bin/qemu-exit 0
fi

progs=""
for t in /usr/lib/boottest/tests/*; do
	name=${t##*/}
	if [ -n "$only" ]; then
		case ",$only," in *",$name,"*) ;; *) continue ;; esac
	else
		case "$name" in selftest-*|bench-*) continue ;; esac
	fi
	progs="$progs $t"
done

n=0
for t in $progs; do n=$((n + 1)); done
{ echo "KTAP version 1"; echo "1..$n"; } >"$results"
i=0
status=0
for t in $progs; do
	i=$((i + 1))
	name=${t##*/}
	echo "# boottest: running $name" >/dev/console
	cd /tmp || cd /
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -s KILL "$tmo" "$t" >/tmp/boottest.out 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	sed 's/^/    /' /tmp/boottest.out >"$results"
	cat /tmp/boottest.out >/dev/console
	echo "    # boottest: $name took $t0..$t1 s of uptime" >"$results"
	case $rc in
	0) echo "ok $i $name" >"$results" ;;
	4) echo "ok $i $name # SKIP" >"$results" ;;
	137)
		echo "not ok $i $name # TIMEOUT after ${tmo}s" >"$results"; status=1
		# a hang is a finding: every task's stack and the workqueues
		echo t >/proc/sysrq-trigger ;;
	*) echo "not ok $i $name # exit status $rc" >"$results"; status=1 ;;
	esac
done
if [ -w $leaks ]; then
	sleep 6
	echo scan >$leaks
	echo scan >$leaks
	found=$(cat $leaks)
	if [ -n "$found" ]; then
		echo "# boottest: kmemleak found new leaks (see console)" >"$results"
		echo "$found" >/dev/console
		status=1
	fi
fi
echo "# boottest: done status=$status" >"$results"
echo "# boottest: done status=$status" >/dev/console
exec /usr/bin/qemu-exit "$status"
