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

# The long randomized stress: >= 1,000,000 create/link/close ops, 8 workers.
STRESS_OPS ?= 1000000
STRESS_SEED ?= 1
stress:
	BOOT_TIMEOUT=3600 $(BACKPORT) test --only stress-cycles \
		--append "uscm_stress_ops=$(STRESS_OPS) uscm_stress_seed=$(STRESS_SEED) boottest.timeout=3000"
	vm/scripts/held.py out --readme README.md >/dev/null || true

# Known gaps: tests of what the series does not do yet (README, DESIGN.md).
# They fail on the patched kernel by design; not part of make check.
gaps:
	$(BACKPORT) build >/dev/null
	$(MAKE) -s -C tests gaps O=$(CURDIR)/build/gaps \
		KSELFTEST=$$(. vm/scripts/lib.sh; kselftest_dir)
	-$(BACKPORT) test --no-build --extra build/gaps/gaps \
		--only $$(ls build/gaps/gaps | paste -sd,)
	-$(BACKPORT) test --stock --extra build/gaps/gaps \
		--only $$(ls build/gaps/gaps | paste -sd,)

patch-check:
	$(BACKPORT) patch-check

# Stock against patched, A B A B ..., BENCH_PAIRS pairs (>= 5).
BENCH_PAIRS ?= 5
bench:
	$(BACKPORT) bench $(BENCH_PAIRS)

# Apply the series to every linux-source-6.1 point release apt offers.
check-versions:
	$(BACKPORT) check-versions

deb:
	$(BACKPORT) deb --check

clean:
	rm -rf build/obj build/tests build/initramfs out

.PHONY: gaps all check check-debug stress bench patch-check check-versions deb clean
