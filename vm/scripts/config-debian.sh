#!/bin/bash
# config-debian.sh OBJ: Debian's own config for this kernel (linux-config-6.1,
# amd64 none flavour) with the feature's options merged in; every feature
# option must survive olddefconfig.  A full build on it takes hours on two
# cores, so `make check` only resolves it (backport build --config debian
# --config-only).
. "$(dirname "$0")/lib.sh"

obj=$1
cfg=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
if [ ! -f "$cfg" ]; then
	[ "$(id -u)" = 0 ] || die "need root to apt-get install linux-config-6.1"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-config-6.1 \
		>"$WORK/apt-config.log" 2>&1 || die "apt-get install linux-config-6.1 failed"
fi
src=$("$TOP/vm/scripts/prepare.sh")
mkdir -p "$obj"
xz -dc "$cfg" >"$obj/.config"
KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "$TOP/vm/config/feature.config" >/dev/null
make -s -C "$src" O="$obj" olddefconfig >/dev/null
dropped=0
while read -r line; do
	case $line in CONFIG_*) grep -qxF "$line" "$obj/.config" ||
		{ echo "[backport] dropped by olddefconfig: $line" >&2; dropped=1; } ;; esac
done <"$TOP/vm/config/feature.config"
[ $dropped = 0 ] || die "Debian's config lost a feature option"
log "Debian config + feature resolves: $(grep -c '=[ym]' "$obj/.config") options set, $(grep IO_URING_SCM "$obj/.config")"
