#!/bin/bash
# versions.sh [--check] [VERSION...]: apply the series with quilt push
# --fuzz=0 to every linux-source-6.1 version apt offers (or the ones given)
# and print a table: applies clean, applies with offsets, or fails at patch
# N, with a one-line diagnosis for each failure: the hunk, the upstream
# change (from Debian's changelog) that most likely moved its context, and
# a line the release has differently near the hunk.
# --check: fail unless the base version applies clean and every other
# version got a verdict, and every failure a diagnosis.
. "$(dirname "$0")/lib.sh"

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
dir=$WORK/versions
mkdir -p "$dir"
if [ $# = 0 ]; then
	set -- $(apt-cache madison linux-source-6.1 | awk '{print $3}' | sort -uV)
fi
# only the files the series touches (and the Makefile) need unpacking
files=$(sed -n 's|^+++ b/||p' "$SERIES_DIR"/*.patch | sort -u)

# the tarball of V on stdout, from prepare's cache ($WORK/tarballs) or apt
tarball() {
	local v=$1 t=$WORK/tarballs/$1 deb
	if [ "$v" = "$(dpkg-query -W -f='${Version}' linux-source-6.1)" ]; then
		cat /usr/src/linux-source-6.1.tar.xz
		return
	fi
	if [ ! -f "$t/linux-source-6.1.tar.xz" ]; then
		mkdir -p "$t"
		(cd "$t" && apt-get download "linux-source-6.1=$v" >"$t/apt.log" 2>&1) ||
			die "apt-get download linux-source-6.1=$v failed"
		deb=$(ls "$t"/linux-source-6.1_*.deb | head -1)
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz \
			>"$t/linux-source-6.1.tar.xz"
		rm -f "$deb"
	fi
	cat "$t/linux-source-6.1.tar.xz"
}

# unpack V into $dir/V/linux-source-6.1 (touched files only); echo its path
unpack() {
	local v=$1 deb t
	t=$dir/$v
	if [ ! -f "$t/linux-source-6.1/Makefile" ]; then
		rm -rf "$t" && mkdir -p "$t"
		tarball "$v" | tar -C "$t" -xJ --wildcards linux-source-6.1/Makefile \
			$(for f in $files; do echo "linux-source-6.1/$f"; done) 2>/dev/null || true
	fi
	echo "$t/linux-source-6.1"
}

# try V: one line of the table, and a diagnosis line on failure
try() {
	local v=$1 src n=0 p out status=clean why=""
	src=$(unpack "$v")
	rm -rf "$src/.pc"
	(cd "$src" && for f in $files; do [ -f "$f.orig-base" ] && mv "$f.orig-base" "$f"; done; true)
	for p in $(grep -v '^\s*\(#\|$\)' "$SERIES_DIR/series" | awk '{print $1}'); do
		n=$((n + 1))
		if ! out=$(cd "$src" && quilt --quiltrc "$TOP/vm/quiltrc" push --fuzz=0 2>&1); then
			status="fails at patch $n"
			why=$(diagnose "$src" "$p" "$out" "$v")
			break
		fi
		echo "$out" | grep -q 'offset' && status="applies with offsets"
	done
	(cd "$src" && quilt --quiltrc "$TOP/vm/quiltrc" pop -a -f -q >/dev/null 2>&1 || true)
	printf '| %-10s | %-22s | %s |\n' "$v" "$status" "$why"
}

# the first failed hunk, and the upstream change that most likely moved its
# context, from what the release has differently around the hunk's place
diagnose() {
	local src=$1 p=$2 out=$3 v=$4 f hunk blame
	# the file whose hunk failed first: the last "patching file" before it
	f=$(echo "$out" | awk '/^patching file /{f=$3} /FAILED at/{print f; exit}')
	hunk=$(echo "$out" | grep -m1 -o 'Hunk #[0-9]* FAILED at [0-9]*')
	blame=$("$TOP/vm/scripts/release-blame.py" "$SERIES_DIR/$p" "$f" \
		"$(echo "$hunk" | sed 's/Hunk #\([0-9]*\).*/\1/')" "$v" "$base/$f" "$src/$f")
	echo "$p: $hunk in $f; upstream: $blame"
}

export QUILT_PATCHES=$SERIES_DIR QUILT_PC=.pc
# the pristine base the diagnoses compare with: the installed tarball's files
base=$(unpack "$(dpkg-query -W -f='${Version}' linux-source-6.1)")
table=$dir/table.md
{
	echo "| version    | result                 | diagnosis |"
	echo "|------------|------------------------|-----------|"
	for v; do try "$v"; done
} | tee "$table"
[ $check = 1 ] || exit 0
# the base applies clean; every version has a verdict, every failure a diagnosis
installed=$(dpkg-query -W -f='${Version}' linux-source-6.1)
grep -q "^| $installed *| clean " "$table" || die "the base $installed does not apply clean"
[ "$(grep -c '^| [0-9]' "$table")" = $# ] || die "a version has no row"
if grep '^| [0-9]' "$table" | grep 'fails at' | grep -v 'upstream: ..'; then
	die "a failure without a diagnosis"
fi
log "check-versions: $# versions, the base clean, every failure diagnosed"
