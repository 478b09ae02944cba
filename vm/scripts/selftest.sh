#!/bin/bash
# selftest.sh [--stock]: the runner's own tests.  Each boots the built image
# with one runner program and checks the verdict: the control must pass; a
# failing case, a hang and a kernel panic must each make the run fail.
. "$(dirname "$0")/lib.sh"

args=("$@")
fails=0
# expect pass|fail WHY NAME [test.sh args]: WHY must appear in the output
expect() {
	local want=$1 why=$2 name=$3 rc=0 out
	shift 3
	out=$("$TOP/vm/scripts/test.sh" --no-build "${args[@]}" --only "$name" "$@" 2>&1) || rc=$?
	if { { [ "$want" = pass ] && [ $rc = 0 ]; } ||
	     { [ "$want" = fail ] && [ $rc != 0 ]; }; } && echo "$out" | grep -q -- "$why"; then
		echo "ok - runner: $name gives $want ($why)"
	else
		echo "not ok - runner: $name should $want with '$why', rc $rc"
		echo "$out" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}
expect pass "1 passed, 0 failed, 1 skipped" selftest-pass
expect fail "not ok 2 a deliberately failing case" selftest-fail
expect fail "TIMEOUT after 5s" selftest-hang --append boottest.timeout=5
expect fail "never reported a status" selftest-panic
BOOT_TIMEOUT=20 expect fail "timed out after 20s" selftest-hang --append boottest.timeout=600
# An outside /init in a plain cpio boots on the image `backport image` prints.
kernel=$("$TOP/vm/scripts/image.sh" "${args[@]}")
d=$WORK/outside-init
rm -rf "$d" && mkdir -p "$d/root"
gcc -static -O2 -o "$d/root/init" "$TOP/tests/runner/outside-init.c"
(cd "$d/root" && echo init | cpio -o -H newc --quiet | gzip >"$d/initrd.gz")
rc=0
BOOT_TIMEOUT=60 "$TOP/vm/scripts/boot.sh" "$kernel" "$d/initrd.gz" "$d/run" >/dev/null 2>&1 || rc=$?
if [ $rc = 0 ] && grep -q 'outside-init: status 0' "$d/run.console"; then
	echo "ok - runner: an outside /init in a plain cpio boots on $(basename "$kernel")"
else
	echo "not ok - runner: outside /init failed (rc $rc), see $d/run.console"
	fails=$((fails + 1))
fi
[ $fails = 0 ]
