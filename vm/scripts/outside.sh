#!/bin/bash
# outside.sh: the two outside suites, built for this kernel and booted on
# stock and patched:
#   - liburing's test/ring-leak.c, from Debian's source package (apt-get
#     source, with a private deb-src list and apt state under build/);
#   - tools/testing/selftests/net/af_unix/scm_rights.c from the
#     linux-source-6.12 package, built with 6.12's kselftest harness.
. "$(dirname "$0")/lib.sh"

dir=$WORK/outside
bins=$dir/tests
mkdir -p "$dir/apt/lists/partial" "$bins/outside"

# liburing source: same version as the liburing-dev the tests link with
ver=$(dpkg-query -W -f='${Version}' liburing-dev)
if [ ! -d "$dir/liburing/test" ]; then
	echo "deb-src http://deb.debian.org/debian bookworm main" >"$dir/apt/src.list"
	A=(-o Dir::Etc::SourceList="$dir/apt/src.list" -o Dir::Etc::SourceParts=/dev/null
	   -o Dir::State::Lists="$dir/apt/lists")
	log "apt-get source liburing=$ver"
	(cd "$dir" && apt-get "${A[@]}" update >"$dir/apt.log" 2>&1 &&
		apt-get "${A[@]}" source --download-only "liburing=$ver" >>"$dir/apt.log" 2>&1) ||
		die "apt-get source liburing failed: $dir/apt.log"
	rm -rf "$dir/liburing"
	(cd "$dir" && dpkg-source -x liburing_*.dsc liburing >/dev/null)
fi

# scm_rights.c from linux-source-6.12
ks=$dir/linux-source-6.12/tools/testing/selftests
if [ ! -f "$ks/net/af_unix/scm_rights.c" ]; then
	log "apt-get download linux-source-6.12"
	(cd "$dir" && rm -f linux-source-6.12_*.deb && apt-get download linux-source-6.12 \
		>>"$dir/apt.log" 2>&1) || die "apt-get download linux-source-6.12 failed"
	dpkg-deb --fsys-tarfile "$dir"/linux-source-6.12_*.deb |
		tar -xO ./usr/src/linux-source-6.12.tar.xz |
		tar -C "$dir" -xJ 'linux-source-6.12/tools/testing/selftests/net/af_unix' \
			'linux-source-6.12/tools/testing/selftests/kselftest_harness.h' \
			'linux-source-6.12/tools/testing/selftests/kselftest.h'
fi

lu=$dir/liburing
gcc -static -O2 -D_GNU_SOURCE -I"$lu/test" -o "$bins/outside/ring-leak" \
	"$lu/test/ring-leak.c" "$lu/test/helpers.c" -luring -lpthread
gcc -static -O2 -D_GNU_SOURCE -I"$ks" -o "$bins/outside/scm_rights" \
	"$ks/net/af_unix/scm_rights.c"
gcc -static -O2 -I"$(kselftest_dir)" -I"$TOP/tests" \
	-o "$bins/outside/expect" "$TOP/tests/outside/expect.c" -luring
o=/usr/lib/boottest/outside
printf '#!/bin/sh\nexec %s/expect ring-leak %s/ring-leak\n' $o $o >"$bins/outside-ring-leak"
# 6.12's scm_rights.c has no case of the F19 shape (measured: every variant
# passes on stock 6.1.192 too), so nothing is declared as failing on stock;
# F19 itself is tests/scm-scc-index.c.
printf '#!/bin/sh\nexec %s/expect tap %s/scm_rights\n' $o $o >"$bins/outside-scm-rights"
chmod +x "$bins"/outside-*

rc=0
for k in --stock ""; do
	"$TOP/vm/scripts/test.sh" --no-build $k --extra "$bins" \
		--only outside-ring-leak,outside-scm-rights || rc=1
done
exit $rc
