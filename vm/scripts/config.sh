#!/bin/bash
# config.sh SRC OBJ FRAGMENT...: allnoconfig + fragments, then check that
# every requested option survived olddefconfig (as kunit's validate_config).
. "$(dirname "$0")/lib.sh"

src=$1 obj=$2
shift 2
mkdir -p "$obj"
want=$obj/.config.requested
cat "$@" | grep -E '^(# )?CONFIG_' >"$want.new"
if [ -f "$obj/.config" ] && cmp -s "$want.new" "$want"; then
	rm "$want.new"
	exit 0
fi
mv "$want.new" "$want"
make -s -C "$src" O="$obj" allnoconfig >/dev/null
KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "$@" >/dev/null
make -s -C "$src" O="$obj" olddefconfig >/dev/null

dropped=()
while read -r line; do
	case "$line" in
	"# CONFIG_"*) sym=${line#\# }; sym=${sym%% *}
		grep -q "^$sym=" "$obj/.config" && dropped+=("$sym (wanted unset)") ;;
	CONFIG_*) grep -qxF "$line" "$obj/.config" || dropped+=("$line") ;;
	esac
done <"$want"
if [ ${#dropped[@]} != 0 ]; then
	rm -f "$want"
	printf '[backport] dropped by olddefconfig: %s\n' "${dropped[@]}" >&2
	die "kernel config lost ${#dropped[@]} requested option(s)"
fi
