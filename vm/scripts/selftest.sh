#!/bin/bash
# selftest.sh [--stock]: the runner's own tests.  Each boots the built image
# with one runner program and checks the verdict: the control must pass; a
# failing case, a hang and a kernel panic must each make the run fail.
. "$(dirname "$0")/lib.sh"

args=("$@")
fails=0
expect() {
	local want=$1 name=$2 rc=0
	shift 2
	"$TOP/vm/scripts/test.sh" --no-build "${args[@]}" --only "$name" "$@" >/dev/null 2>&1 || rc=$?
	if { [ "$want" = pass ] && [ $rc = 0 ]; } || { [ "$want" = fail ] && [ $rc != 0 ]; }; then
		echo "ok - runner: $name gives $want (rc $rc)"
	else
		echo "not ok - runner: $name should $want, rc $rc"
		fails=$((fails + 1))
	fi
}
expect pass selftest-pass
expect fail selftest-fail
expect fail selftest-hang --append boottest.timeout=5
expect fail selftest-panic
BOOT_TIMEOUT=20 expect fail selftest-hang --append boottest.timeout=600
[ $fails = 0 ]
