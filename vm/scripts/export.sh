#!/bin/bash
# export.sh --mbox FILE | --git DIR | --check: the series for git users.
#   --mbox FILE  one git-am-able mbox of the series, in order
#   --git DIR    a git tree of the pristine tarball with the series as commits
#                on branch uring-scm (base commit tagged v6.1.192-debian)
#   --check      --git into build/, then compare it with the quilt tree
. "$(dirname "$0")/lib.sh"

mbox() {
	local out=$1 p
	: >"$out"
	for p in $(grep -v '^\s*\(#\|$\)' "$SERIES_DIR/series" | awk '{print $1}'); do
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" >>"$out"
		cat "$SERIES_DIR/$p" >>"$out"
		echo >>"$out"
	done
}

gittree() {
	local dir=$1 m
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" --strip-components=1 -xf "${SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}"
	m=$(mktemp)
	mbox "$m"
	(
		cd "$dir"
		export GIT_AUTHOR_DATE="2026-12-03T00:00:00Z" GIT_COMMITTER_DATE="2026-12-03T00:00:00Z"
		git init -q -b uring-scm
		# Debian's tarball .gitignore ignores its own top level: force
		git -c user.name=backport -c user.email=backport@localhost add -f -A .
		git -c user.name=backport -c user.email=backport@localhost \
			commit -q -m "linux-source-6.1 $BASE_VERSION (Debian tarball)"
		git tag "v$BASE_VERSION-debian"
		git -c user.name=backport -c user.email=backport@localhost am -q "$m"
	)
	rm -f "$m"
}

case ${1:-} in
--mbox) [ -n "${2:-}" ] || die "--mbox FILE"; mbox "$2"; log "wrote $2" ;;
--git) [ -n "${2:-}" ] || die "--git DIR"; gittree "$2"; log "series committed in $2" ;;
--check)
	g=$WORK/export-check
	phase "git am of the mbox" gittree "$g"
	q=$("$TOP/vm/scripts/prepare.sh")
	n=$(git -C "$g" rev-list --count "v$BASE_VERSION-debian"..HEAD)
	want=$(grep -cv '^\s*\(#\|$\)' "$SERIES_DIR/series")
	[ "$n" = "$want" ] || die "git am made $n commits, the series has $want"
	if diff -r -q -x .git -x .pc "$g" "$q" >"$WORK/export-check.diff"; then
		echo "ok - git am of the mbox gives the quilt tree exactly ($n commits)"
	else
		cat "$WORK/export-check.diff" >&2
		die "the git-am tree differs from the quilt tree"
	fi ;;
*) die "export: --mbox FILE | --git DIR | --check" ;;
esac
