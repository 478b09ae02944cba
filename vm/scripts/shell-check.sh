#!/bin/bash
# shell-check.sh: `backport shell` gives a working shell: wait for it on
# the console, type a command and a test from PATH, read the answers back.
. "$(dirname "$0")/lib.sh"

coproc SH { timeout 240 "$TOP/vm/scripts/shell.sh" 2>&1; }
out=$WORK/shell-check.log
: >"$out"
ok=0
while IFS= read -r -t 200 line <&"${SH[0]}"; do
	echo "$line" >>"$out"
	case $line in
	*"job control turned off"*)
		sleep 1
		printf 'echo shell-says-$((6*7))\n' >&"${SH[1]}"
		sleep 2
		printf 'ring-register-errors | grep Totals\n' >&"${SH[1]}"
		sleep 5
		printf 'qemu-exit 0\n' >&"${SH[1]}" ;;
	*shell-says-42*) ok=$((ok | 1)) ;;
	*"Totals: pass:10 fail:0"*) ok=$((ok | 2)) ;;
	esac
done
wait 2>/dev/null || true
if [ $ok = 3 ]; then
	echo "ok - backport shell: a typed command and a test from PATH ran"
else
	tail -15 "$out" >&2
	die "backport shell did not answer (see $out)"
fi
