#!/bin/bash
# prepare.sh [--stock] [--source-version V]: unpack linux-source-6.1 (or
# the point release V, fetched with apt-get download) and apply the series.
# The tree is kept between runs; only the series is popped and pushed again,
# so unchanged files keep their timestamps and rebuilds stay incremental.
. "$(dirname "$0")/lib.sh"

stock=0 version=""
while [ $# -gt 0 ]; do
	case $1 in
	--stock) stock=1 ;;
	--source-version) version=$2; shift ;;
	*) die "prepare: unknown $1" ;;
	esac
	shift
done
if [ -n "$version" ]; then
	# another point release: its tarball, from apt, in a tree of its own
	t=$WORK/tarballs/$version
	if [ ! -f "$t/linux-source-6.1.tar.xz" ]; then
		mkdir -p "$t"
		(cd "$t" && apt-get download "linux-source-6.1=$version" >"$t/apt.log" 2>&1) ||
			die "apt-get download linux-source-6.1=$version failed (apt-cache madison linux-source-6.1 lists the versions)"
		dpkg-deb --fsys-tarfile "$t"/linux-source-6.1_*.deb |
			tar -xO ./usr/src/linux-source-6.1.tar.xz >"$t/linux-source-6.1.tar.xz"
		rm -f "$t"/linux-source-6.1_*.deb
	fi
	SOURCE_TARBALL=$t/linux-source-6.1.tar.xz
	WORK=$WORK/src-versions/$version
fi
TARBALL=${SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$TARBALL" ] || die "$TARBALL missing (run: backport deps)"

src=$(src_dir $stock)
top=$(dirname "$src")
stamp=$top/.tarball
want="$(stat -c '%s %Y' "$TARBALL") $TARBALL"
if [ ! -f "$src/Makefile" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "unpacking $TARBALL into $top"
	rm -rf "$top"
	mkdir -p "$top"
	tar -C "$top" -xf "$TARBALL"
	echo "$want" >"$stamp"
fi

kver=$(make -s -C "$src" kernelversion)
if [ "$kver" != "$BASE_VERSION" ] && [ -z "$version" ]; then
	die "tarball is $kver, but quilt-patches/series is made for $BASE_VERSION;
  use a matching linux-source-6.1 or: backport prepare --source-version V"
fi
[ $stock = 1 ] && { echo "$src"; exit 0; }

cd "$src"
export QUILT_PATCHES=$SERIES_DIR QUILT_PC=.pc
quilt() { command quilt --quiltrc "$TOP/vm/quiltrc" "$@"; }
# Skip the pop/push when the applied series is the one in the repo: the
# tree then keeps its timestamps, and a build running on it is not upset.
series_sum=$(cd "$SERIES_DIR" && cat series $(grep -v '^\s*\(#\|$\)' series | awk '{print $1}') | sha256sum)
if [ -f .pc/.backport-series ] && [ "$(cat .pc/.backport-series)" = "$series_sum" ]; then
	echo "$src"
	exit 0
fi
# Undo whatever is applied, from quilt's own backups: this works even
# when the series was renamed or reordered since.  Restored files are
# touched so that make rebuilds them.
unapply() {
	local p f
	[ -f .pc/applied-patches ] || { rm -rf .pc; return 0; }
	tac .pc/applied-patches | while read -r p; do
		(cd ".pc/$p" && find . -type f) | while read -r f; do
			if [ -s ".pc/$p/$f" ]; then
				cp "$(pwd)/.pc/$p/$f" "$f"
				touch "$f"
			else
				rm -f "$f"
			fi
		done
	done
	rm -rf .pc
}
unapply
if [ "$kver" != "$BASE_VERSION" ]; then
	# not the version the series is made for: say patch by patch what applies
	log "tarball is $kver; the series is made for $BASE_VERSION: trying each patch"
	failed=0
	for p in $(grep -v '^\s*\(#\|$\)' "$SERIES_DIR/series" | awk '{print $1}'); do
		if out=$(quilt push --fuzz=0 2>&1); then
			if echo "$out" | grep -q offset; then echo "  offsets  $p"; else echo "  clean    $p"; fi
		else
			hunk=$(echo "$out" | grep -m1 -o 'Hunk #[0-9]* FAILED at [0-9]*')
			f=$(echo "$out" | awk '/^patching file /{f=$3} /FAILED at/{print f; exit}')
			echo "  FAILS    $p: $hunk in $f"
			echo "           upstream: $("$TOP/vm/scripts/release-blame.py" "$SERIES_DIR/$p" \
				"$f" "$(echo "$hunk" | sed 's/Hunk #\([0-9]*\).*/\1/')" "$version")"
			failed=1
			break
		fi
	done >&2
	[ $failed = 0 ] || { unapply; die "the series does not apply to $kver (see above; backport check-versions shows all releases)"; }
	log "the whole series applies to $kver"
	echo "$src"
	exit 0
fi
log "quilt push -a --fuzz=0 ($(grep -cv '^\s*\(#\|$\)' "$SERIES_DIR/series" || true) patches)"
set +e
out=$(quilt push -a --fuzz=0 2>&1)
rc=$?
set -e
if [ $rc != 0 ] && [ $rc != 2 ] || echo "$out" | grep -q 'offset\|fuzz'; then
	echo "$out" >&2
	unapply
	die "series does not apply cleanly to $kver (no fuzz, no offsets allowed)"
fi
mkdir -p .pc
echo "$series_sum" >.pc/.backport-series
echo "$src"
