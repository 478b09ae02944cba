#!/bin/bash
# prepare.sh [--stock]: unpack linux-source-6.1 and apply the quilt series.
# The tree is kept between runs; only the series is popped and pushed again,
# so unchanged files keep their timestamps and rebuilds stay incremental.
. "$(dirname "$0")/lib.sh"

stock=0
[ "${1:-}" = --stock ] && stock=1
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
if [ "$kver" != "$BASE_VERSION" ]; then
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
