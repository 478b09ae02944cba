#!/bin/bash
# Install, with apt-get, whatever the pipeline needs and this machine lacks.
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.1 quilt gcc make bc bison flex libelf-dev libssl-dev
cpio kmod dracut-core dkms qemu-system-x86 liburing-dev ccache xz-utils
busybox-static perl python3 patch dpkg-dev rsync fakeroot gnuplot-nox
linux-config-6.1 dwarves"

missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
[ "$(id -u)" = 0 ] || die "need root to apt-get install: ${missing[*]}"
log "apt-get install ${missing[*]}"
mkdir -p "$WORK"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${missing[@]}" >"$WORK/apt.log" 2>&1 || {
	apt-get update >>"$WORK/apt.log" 2>&1
	apt-get install -y --no-install-recommends "${missing[@]}" >>"$WORK/apt.log" 2>&1
} || die "apt-get failed, see $WORK/apt.log"
