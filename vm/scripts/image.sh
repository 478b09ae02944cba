#!/bin/bash
# image.sh [--stock] [--debug]: print the variant's bzImage, fail if unbuilt.
. "$(dirname "$0")/lib.sh"

stock=0 debug=0
for a; do
	case $a in --stock) stock=1 ;; --debug) debug=1 ;; *) die "image: unknown $a" ;; esac
done
img=$(obj_dir "$(variant_name $stock $debug)")/arch/x86/boot/bzImage
[ -f "$img" ] || die "no $(variant_name $stock $debug) image yet (run: backport build${1:+ $*})"
echo "$img"
