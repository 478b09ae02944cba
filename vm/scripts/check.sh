#!/bin/bash
# check.sh: the whole suite, in the order that fails fastest.  Each step
# prints its own verdict; the summary table at the end lists them all.
. "$(dirname "$0")/lib.sh"

S=$TOP/vm/scripts
results=()
step() {
	local name=$1 rc=0 t0=$SECONDS
	shift
	echo "[check] ---- $name"
	"$@" || rc=$?
	results+=("$(printf '%-52s %5ss  %s' "$name" $((SECONDS - t0)) \
		"$([ $rc = 0 ] && echo pass || echo "FAIL ($rc)")")")
	return 0
}
dkms_refuses_stock() {
	local out
	if out=$("$S/dkms.sh" "$WORK/obj/stock" 2>&1); then
		echo "dkms built the inspector against the stock tree"
		return 1
	fi
	echo "$out" | tail -1
	echo "$out" | grep -q "needs a kernel with CONFIG_IO_URING_SCM"
}
step "build stock" "$S/build.sh" --stock
step "build patched" "$S/build.sh"
step "runner self-tests (patched image)" "$S/selftest.sh"
step "dkms refuses the stock tree, clearly" dkms_refuses_stock
step "suite on stock" "$S/test.sh" --stock --no-build
step "suite on patched, sysctl refusing" "$S/test.sh" --no-build --sysctl-refuse
step "suite on patched" "$S/test.sh" --no-build
step "matrix: stock / refusing / patched, as declared" "$S/matrix.py" \
	"$OUT/latest-stock.ktap" "$OUT/latest-patched-refusing.ktap" "$OUT/latest-patched.ktap"
step "outside suites (liburing, kselftest)" "$S/outside.sh"
step "series: per-patch build, checkpatch, off" "$S/patch-check.sh"
step "export: git am of the mbox = the quilt tree" "$S/export.sh" --check
step "shell: a command typed at the console runs" "$S/shell-check.sh"
step "deb: bindeb-pkg, dpkg-deb, boot the packaged kernel" "$S/deb.sh" --check
step "Debian's config + feature resolves" "$S/build.sh" --config debian --config-only
step "prepare --source-version on another point release" "$S/prepare.sh" --source-version 6.1.190-1
step "check-versions: every point release apt offers, diagnosed" "$S/versions.sh" --check
if [ "${CHECK_DEBUG:-1}" = 1 ]; then
	step "build patched debug" "$S/build.sh" --debug
	step "suite on patched debug (KASAN, kmemleak, lockdep)" "$S/test.sh" --debug --no-build
fi
step "README: the table of what held, from these runs" "$S/held.py" "$OUT" --readme "$TOP/README.md"
echo "[check] summary:"
printf '  %s\n' "${results[@]}"
! printf '%s\n' "${results[@]}" | grep -q FAIL
