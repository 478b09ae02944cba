#!/bin/bash
# deb.sh [--check]: linux-image (and headers) .debs of the patched lean
# kernel with the kernel's own bindeb-pkg, versioned as carrying the series
# (6.1.192-1+uringscm1), left under out/deb/.  --check inspects them with
# dpkg-deb and boots the kernel extracted from the image .deb.
. "$(dirname "$0")/lib.sh"

rev=$(sed -n 's/^# package-revision: //p' "$SERIES_DIR/series")
ver=$BASE_VERSION-${rev:-1+uringscm1}
obj=$(obj_dir patched)
src=$("$TOP/vm/scripts/prepare.sh")
"$TOP/vm/scripts/build.sh" >/dev/null
dpkg-query -W -f='${Status}' dpkg-dev 2>/dev/null | grep -q 'ok installed' ||
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends dpkg-dev rsync \
		>"$WORK/apt-deb.log" 2>&1
mkdir -p "$OUT/deb"
img=$(ls "$OUT"/deb/linux-image-"$BASE_VERSION"_"$ver"_*.deb 2>/dev/null | head -1 || true)
if [ -n "$img" ] && [ "$img" -nt "$obj/arch/x86/boot/bzImage" ]; then
	log "$(basename "$img") is newer than the kernel: not packaging again"
else
rm -f "$(dirname "$obj")"/*.deb "$(dirname "$obj")"/*.changes "$(dirname "$obj")"/*.buildinfo
phase "bindeb-pkg $ver" kmake "$src" "$obj" KDEB_PKGVERSION="$ver" bindeb-pkg >"$obj/deb.log" 2>&1 ||
	{ tail -20 "$obj/deb.log" >&2; die "bindeb-pkg failed: $obj/deb.log"; }
mv "$(dirname "$obj")"/*.deb "$OUT/deb/"
rm -f "$(dirname "$obj")"/*.changes "$(dirname "$obj")"/*.buildinfo
fi
ls "$OUT"/deb/*"$ver"*.deb

[ "${1:-}" = --check ] || exit 0
img=$(ls "$OUT"/deb/linux-image-"$BASE_VERSION"_"$ver"_*.deb | head -1)
[ -f "$img" ] || die "no linux-image .deb for $ver"
[ "$(dpkg-deb -f "$img" Version)" = "$ver" ] || die "$img: version is not $ver"
contents=$(dpkg-deb -c "$img")
echo "$contents" | grep -c "boot/vmlinuz-$BASE_VERSION\$" >/dev/null || die "$img has no boot/vmlinuz-$BASE_VERSION"
echo "$contents" | grep -c "boot/config-$BASE_VERSION\$" >/dev/null || die "$img has no boot/config"
x=$WORK/deb-check
rm -rf "$x" && mkdir -p "$x" && dpkg-deb -x "$img" "$x"
grep -q '^CONFIG_IO_URING_SCM=y' "$x/boot/config-$BASE_VERSION" || die "packaged config lacks IO_URING_SCM"
echo "ok - $(basename "$img"): version $ver, vmlinuz and config inside"
"$TOP/vm/scripts/test.sh" --no-build --image "$x/boot/vmlinuz-$BASE_VERSION" --as deb \
	--only ring-pair-cycle,scm-scc-index
echo "ok - the kernel from the .deb boots and collects ring cycles"
