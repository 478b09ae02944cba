# Conventional targets over ./backport (see README.md).
#   make          build the patched kernel, boot it, run the cycle tests
#   make check    the whole suite: runner self-tests, stock, refusing,
#                 patched, series check, then the debug kernel
BACKPORT := ./backport

all:
	$(BACKPORT) test

check:
	$(BACKPORT) check

check-debug:
	$(BACKPORT) test --debug

patch-check:
	$(BACKPORT) patch-check

clean:
	rm -rf build/obj build/tests build/initramfs out

.PHONY: all check check-debug patch-check clean
