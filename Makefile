# gfxemu build.  `make` builds the library and CLI; `make check` installs missing Debian packages,
# builds and runs every test; `make demo` shows a clang-built kernel disassembled.
#
# Conventions (no need to edit this file when adding code):
#   src/<layer>/*.c        -> compiled into build/libgfxemu.a and build/libgfxemu.so
#                             (src/isa/gen/*.inc are #included, never compiled on their own)
#   tools/*.c              -> build/gfxemu (uses include/gfxemu.h only)
#   tests/<layer>/test_*.c -> build/tests/<layer>/test_*, linked with libgfxemu.a + tests/common/*.c
#   tests/<layer>/test_*.sh / test_*.py -> run by tests/run_tests.sh
#   tests/fuzz/fuzz_*.c    -> libFuzzer targets for `make fuzz` (clang-22)

ifeq ($(origin CC),default)
CC := gcc
endif
BUILD ?= build
CLANG ?= clang-22
FUZZ_SECONDS ?= 180

# EXTRA_CFLAGS/EXTRA_LDFLAGS are for instrumented builds (see check-sanitize).
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -fPIC -fvisibility=hidden $(CFLAGS) \
	$(EXTRA_CFLAGS)
CPPFLAGS := -Iinclude -Isrc
LDLIBS := -ldl -lm -lpthread
ALL_LDFLAGS := $(LDFLAGS) $(EXTRA_LDFLAGS)

# src/vgpu/ is not part of the library: it is the preloadable virtual GPU (libgfxemu-vgpu.so).
LIB_SRCS := $(filter-out src/vgpu/%,$(sort $(wildcard src/*.c src/*/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# `ar` keys archive members by file name: two sources with one base name would silently replace
# each other in libgfxemu.a.
DUP_SRCS := $(shell printf '%s\n' $(notdir $(LIB_SRCS)) | sort | uniq -d)
$(if $(DUP_SRCS),$(error source files share a base name (breaks libgfxemu.a): $(DUP_SRCS)))
CLI_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tools/*.c)))
COMMON_SRCS := $(sort $(wildcard tests/common/*.c))
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_SRCS := $(sort $(wildcard tests/*/test_*.c))
TEST_BINS := $(TEST_SRCS:%.c=$(BUILD)/%)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)

LIB_A := $(BUILD)/libgfxemu.a
LIB_SO := $(BUILD)/libgfxemu.so
CLI := $(BUILD)/gfxemu
# The virtual GPU of `gfxemu exec` (src/vgpu/, docs/virtual-gpu.md): an LD_PRELOAD library with
# the engine linked in.  Its DRM structures come from libdrm-dev's amdgpu_drm.h.
VGPU_SRCS := $(sort $(wildcard src/vgpu/*.c))
VGPU_OBJS := $(VGPU_SRCS:%.c=$(BUILD)/obj/%.o)
VGPU_SO := $(BUILD)/libgfxemu-vgpu.so

.PHONY: all deps check check-reference sweep tests demo fuzz check-sanitize check-tsan check-portable clean format format-check bench \
	bench-bins bench-compare bench-ops
.DELETE_ON_ERROR:

all: $(LIB_A) $(LIB_SO) $(CLI) $(VGPU_SO)

$(VGPU_OBJS): CPPFLAGS += -Isrc/vgpu/shim -I/usr/include/libdrm
# tools/counters.o: the counters' names and layout, shared with `gfxemu run --counters`.
$(VGPU_SO): $(VGPU_OBJS) $(LIB_OBJS) $(BUILD)/obj/tools/counters.o
	$(CC) -shared $(ALL_CFLAGS) $(ALL_LDFLAGS) -Wl,-soname,libgfxemu-vgpu.so $^ -o $@ $(LDLIBS)

$(BUILD)/obj/tests/%.o: CPPFLAGS += -Itests
# The VALU float handlers take square roots per lane: with no errno to set, gcc computes sqrt()
# with the (vector) square root instruction, the same correctly rounded value, and the lane
# loops vectorize; with errno they kept a libm call per lane.  Nothing reads the host's FP
# exception flags or unmasks its traps, so float operations have no side effect to keep in
# order: without -fno-trapping-math gcc did not if-convert float compares in the lane loops
# whose operands it reads from the register file itself (v_max_f32's VGPR-only clone ran one
# lane at a time, 400-800 ns a wave-instruction).  Neither flag changes a computed value.
$(BUILD)/obj/src/exec/valu_f32.o $(BUILD)/obj/src/exec/valu_f64.o $(BUILD)/obj/src/exec/valu_f16.o: \
    ALL_CFLAGS += -fno-math-errno -fno-trapping-math

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	$(CC) -shared $(ALL_CFLAGS) $(ALL_LDFLAGS) -Wl,-soname,libgfxemu.so $^ -o $@ $(LDLIBS)

$(CLI): $(CLI_OBJ) $(LIB_A)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@ $(LDLIBS)

# Kept after the link: make would delete these intermediates on a first build and then, once
# their .d files name them, rebuild every test object on the next `make check`.
.SECONDARY: $(TEST_SRCS:%.c=$(BUILD)/obj/%.o)
$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(COMMON_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@ $(LDLIBS)

deps:
	@bash scripts/deps.sh

tests: all $(TEST_BINS)

# The library and CLI must build; a test program that does not compile is reported by the runner
# as a failed test (make -k), so one broken test does not hide the others' results.  Its binary
# from an earlier build is removed first: run, it would pass without the change.  A format
# deviation (format-check) fails check too, but only after the tests have run.
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -k $(TEST_BINS) || { \
	    echo "check: some tests did not build"; \
	    for b in $(TEST_BINS); do $(MAKE) --no-print-directory -q $$b || rm -f $$b; done; }
	@fmt=0; $(MAKE) --no-print-directory format-check || fmt=1; \
	    BUILD=$(BUILD) bash tests/run_tests.sh && [ $$fmt -eq 0 ]

# The C kernel suites (clang-22 kernels against C references) on the reference tier: every
# instruction through its general handler, no fast path (GFXEMU_TIER=reference, src/exec/exec.h);
# make check runs them on the fast tier, tests/exec/test_tiers.c compares the tiers directly.
check-reference: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -k $(filter $(BUILD)/tests/kernels/%,$(TEST_BINS))
	@GFXEMU_TIER=reference BUILD=$(BUILD) TESTS='^kernels/test_[a-z0-9_]*\.c$$' \
	    bash tests/run_tests.sh

# The hosts without AVX-512 (issue 16: AVX2 and AVX-512 hosts, and a portable path): a build
# with -DGFXEMU_NO_CLONES in build-portable/, so every lane loop is compiled for the baseline
# x86-64 and the hand-written AVX-512 paths (ds_bpermute's table lookup, the coalescing test of
# vector memory, the AVX-512 and AVX2 MFMA kernels) give way to their plain C versions, which
# make check never runs on an AVX-512 machine.  The execution, dispatch, kernel and workload
# suites run twice: with the AVX2 native blocks (GFXEMU_JIT=avx2, an AVX2 host) and with none
# (GFXEMU_JIT=0, a host with neither; every VALU instruction through its handler).  CI runs it.
PORTABLE_TESTS ?= ^(exec|kernels|dispatch|workloads)/
check-portable: deps
	@$(MAKE) --no-print-directory BUILD=build-portable EXTRA_CFLAGS=-DGFXEMU_NO_CLONES all
	@$(MAKE) --no-print-directory -k BUILD=build-portable EXTRA_CFLAGS=-DGFXEMU_NO_CLONES \
	    $(filter $(foreach d,exec kernels dispatch workloads,build-portable/tests/$(d)/%), \
	    $(TEST_BINS:$(BUILD)/%=build-portable/%)) || echo "check-portable: some tests did not build"
	@echo "check-portable: AVX2 native blocks (GFXEMU_JIT=avx2)"
	@GFXEMU_JIT=avx2 BUILD=build-portable TESTS='$(PORTABLE_TESTS)' bash tests/run_tests.sh
	@echo "check-portable: no native blocks (GFXEMU_JIT=0)"
	@GFXEMU_JIT=0 BUILD=build-portable TESTS='$(PORTABLE_TESTS)' bash tests/run_tests.sh

# The disassembler sweep on fresh random words (tests/isa/test_sweep.c): `make check` runs its
# fixed seed, whose LLVM answers it keeps; this draws a new million words per target every time
# (CI runs it after make check).
sweep: deps
	@$(MAKE) --no-print-directory $(BUILD)/tests/isa/test_sweep
	@SEED=random BUILD=$(BUILD) $(BUILD)/tests/isa/test_sweep

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
check-sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build-san EXTRA_CFLAGS="$(SAN_FLAGS)" \
	    EXTRA_LDFLAGS="-fsanitize=address,undefined" all
	@$(MAKE) --no-print-directory -k BUILD=build-san EXTRA_CFLAGS="$(SAN_FLAGS)" \
	    EXTRA_LDFLAGS="-fsanitize=address,undefined" $(TEST_BINS:$(BUILD)/%=build-san/%) || \
	    echo "check-sanitize: some tests did not build"
	@BUILD=build-san ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    bash tests/run_tests.sh

# ThreadSanitizer on the tests that run workgroups on several worker threads, with clang-22's TSan
# (gcc 12's crashes at start-up on this kernel).  Kernels that race plain accesses (every
# workgroup storing the same words, a CAS loop's first load) are legal on a GPU and no C data
# race on the host: gfxemu does plain global accesses as relaxed atomics (src/exec/xatomic.h).
TSAN_TESTS ?= dispatch/|kernels/|exec/test_valu_kernels|tools/test_run_vecadd|tools/test_run_scalar|api/test_runasm_threads|vgpu/test_kfd
check-tsan: deps
	@$(MAKE) --no-print-directory CC=$(CLANG) BUILD=build-tsan \
	    EXTRA_CFLAGS="-fsanitize=thread -O1" EXTRA_LDFLAGS=-fsanitize=thread all
	@$(MAKE) --no-print-directory -k CC=$(CLANG) BUILD=build-tsan \
	    EXTRA_CFLAGS="-fsanitize=thread -O1" EXTRA_LDFLAGS=-fsanitize=thread \
	    $(TEST_BINS:$(BUILD)/%=build-tsan/%) || echo "check-tsan: some tests did not build"
	@BUILD=build-tsan TSAN_OPTIONS=halt_on_error=1 TESTS='$(TSAN_TESTS)' bash tests/run_tests.sh
	@echo "check-tsan: Python threads launching on one Device (issue #17 item 6), TSan library"
	@LD_PRELOAD="$$($(CLANG) -print-resource-dir)/lib/linux/libclang_rt.tsan-x86_64.so" \
	    BUILD=build-tsan TSAN_OPTIONS="halt_on_error=1 exitcode=66" GFXEMU_CONCURRENCY_ITERS=300 \
	    python3 tests/python/test_args.py Concurrency

demo: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bash scripts/demo.sh

# libFuzzer targets are built straight from the sources with clang's instrumentation.
$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS) $(wildcard include/*.h src/*/*.h src/*/gen/*.inc)
	@mkdir -p $(@D)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined $(CPPFLAGS) $< $(LIB_SRCS) -o $@ -lm -lpthread

# Targets that #include a source from outside src/ (tools/) rebuild when it changes.
$(BUILD)/fuzz/fuzz_debug_cli: tools/debug_cli.c tools/debug_cli.h
$(BUILD)/fuzz/fuzz_args: $(wildcard tools/*.c tools/*.h)

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run_fuzz.sh $(FUZZ_BINS)

# Benchmarks (bench/README.md): release build in build-bench/, every bench/b_*.c a program linked
# with bench/bench.c, tests/common/*.c and libgfxemu.a; bench/run.py runs them and bench/b_*.sh,
# prints the table and writes bench/results.json.  BENCH_RUNS=N runs per figure (default 5).
BENCH_BUILD ?= build-bench
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(sort $(wildcard bench/b_*.c)))
$(BUILD)/obj/bench/%.o: CPPFLAGS += -Ibench -Itests
.SECONDARY: $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/*.c)) $(COMMON_OBJS)
$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BUILD)/obj/bench/bench.o $(COMMON_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@ $(LDLIBS)
bench-bins: $(BENCH_BINS)
bench: deps
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) CFLAGS="-O2 -DNDEBUG" all bench-bins
	@BUILD=$(BENCH_BUILD) python3 bench/run.py
# Per-instruction cost survey (bench/ops.c): ns per wave-instruction of each line of bench/ops.txt
# (OPS=FILE for another list, OPS_ARCH=gfx942 ... for another target).
OPS ?= bench/ops.txt
bench-ops: deps
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) CFLAGS="-O2 -DNDEBUG" all $(BENCH_BUILD)/bench/ops
	@$(BENCH_BUILD)/bench/ops $(OPS)
# Issue 16's table (gfxemu against this CPU, native references measured in the same run).
bench-compare: deps
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) CFLAGS="-O2 -DNDEBUG" all bench-bins
	@BUILD=$(BENCH_BUILD) python3 bench/compare.py

clean:
	rm -rf build build-san build-tsan build-portable $(BENCH_BUILD)

# clang-format-22 (scripts/deps.sh installs it) with the committed .clang-format: unversioned
# clang-format may be an older release that formats some constructs differently.
CLANG_FORMAT ?= clang-format-22
FORMAT_SRCS = $(shell find src tools tests include -name '*.[ch]' | sort)
format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)

# Lists the files `make format` would change; fails if there is any.  $(BUILD)/format-check.ok
# records a clean check: the next one reads only the files changed since (all of them when
# .clang-format changed), so a warm `make check` does not spend seconds re-reading the tree.
format-check: deps
	@$(MAKE) --no-print-directory -s $(BUILD)/format-check.ok

$(BUILD)/format-check.ok: $(FORMAT_SRCS) .clang-format
	@mkdir -p $(@D)
	@files="$(if $(filter .clang-format,$?),$(FORMAT_SRCS),$(filter-out .clang-format,$?))"; \
	out=$$($(CLANG_FORMAT) --dry-run -Werror $$files 2>&1); st=$$?; \
	bad=$$(echo "$$out" | \
	    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | \
	    sort -u); \
	if [ -n "$$bad" ]; then \
	    echo "format-check: $$(echo "$$bad" | wc -l) files differ from .clang-format" \
	        "($(CLANG_FORMAT)); \`make format\` fixes them:"; \
	    echo "$$bad" | sed 's/^/    /'; exit 1; \
	fi; \
	[ $$st -eq 0 ] || { echo "format-check: $(CLANG_FORMAT) failed"; exit 1; }
	@touch $@

-include $(LIB_OBJS:.o=.d) $(VGPU_OBJS:.o=.d) $(CLI_OBJ:.o=.d) $(COMMON_OBJS:.o=.d) \
	$(TEST_SRCS:%.c=$(BUILD)/obj/%.d) $(wildcard $(BUILD)/obj/bench/*.d)
include tegra/tegra.mk

# Opcode coverage audit (docs/testing.md): a -DGFXEMU_OPCOV build in build-cov/ runs the tests
# and reports, per target and format, the implemented ops no test executes.
.PHONY: coverage clean-coverage
coverage: deps
	@bash scripts/opcov.sh --check
clean: clean-coverage
clean-coverage:
	rm -rf build-cov

# Regeneration check (tools/gen_isa.py): regenerate every family's tables for every target from
# scratch into build/regen and require them byte-identical to the committed src/isa/gen/*.inc,
# so a generator change or an LLVM 22 update that moves a table shows.  Needs llvm-22's
# libLLVM.so.22.1 (skipped, with a message, without it); takes tens of minutes.
.PHONY: regen-check
regen-check:
	@if ! ls /usr/lib/llvm-22/lib/libLLVM.so.22.1 >/dev/null 2>&1 && [ -z "$$GFXEMU_LIBLLVM" ]; then \
	    echo "regen-check: skipped (no libLLVM.so.22.1: apt-get install llvm-22)"; exit 0; fi; \
	rm -rf $(BUILD)/regen && python3 tools/gen_isa.py --out $(BUILD)/regen && \
	diff -r src/isa/gen $(BUILD)/regen && echo "regen-check: src/isa/gen is what the generator makes"

# A stand-in for ROCm's libamd_comgr.so (tools/comgr/comgr_shim.c): run-time HIP compilation with
# clang-22 and Debian's rocm-device-libs, for running a framework's HIP-renderer test legs on
# gfxemu by hand (tools/tinygrad_mock.py).  Not part of `all`.
.PHONY: comgr-shim
comgr-shim: $(BUILD)/libamd_comgr_shim.so
$(BUILD)/libamd_comgr_shim.so: tools/comgr/comgr_shim.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared -fvisibility=hidden $< -o $@

# `make install PREFIX=/usr/local` (DESTDIR= for staging): the CLI, libgfxemu.{a,so}, the public
# header and gfxemu/opencl.h, a pkg-config file (scripts/gfxemu.pc.in), the man page and the
# bash completion.  tests/tools/test_install.sh installs into a temporary prefix and builds
# against it with pkg-config.
PREFIX ?= /usr/local
GFXEMU_VERSION := $(shell awk '/define GFXEMU_VERSION_(MAJOR|MINOR|PATCH)/ \
	{ v = v (v ? "." : "") $$3 } END { print v }' include/gfxemu.h)
.PHONY: install uninstall
# INSTALL_DEPS= installs what is built without rebuilding it (tests/tools/test_install.sh does,
# so that its `make install` never relinks build/ under the other tests running beside it).
INSTALL_DEPS ?= all
install: $(INSTALL_DEPS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/gfxemu $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/gfxemu
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/libgfxemu.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libgfxemu.so
	install -m 755 $(VGPU_SO) $(DESTDIR)$(PREFIX)/lib/libgfxemu-vgpu.so
	install -m 644 include/gfxemu.h $(DESTDIR)$(PREFIX)/include/gfxemu.h
	install -m 644 include/gfxemu/opencl.h $(DESTDIR)$(PREFIX)/include/gfxemu/opencl.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(GFXEMU_VERSION)|' scripts/gfxemu.pc.in \
	    >$(DESTDIR)$(PREFIX)/lib/pkgconfig/gfxemu.pc
	install -m 644 man/gfxemu.1 $(DESTDIR)$(PREFIX)/share/man/man1/gfxemu.1
	install -m 644 completion/gfxemu.bash \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/gfxemu
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gfxemu $(DESTDIR)$(PREFIX)/lib/libgfxemu.a \
	    $(DESTDIR)$(PREFIX)/lib/libgfxemu.so $(DESTDIR)$(PREFIX)/lib/libgfxemu-vgpu.so \
	    $(DESTDIR)$(PREFIX)/include/gfxemu.h \
	    $(DESTDIR)$(PREFIX)/include/gfxemu/opencl.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/gfxemu.pc \
	    $(DESTDIR)$(PREFIX)/share/man/man1/gfxemu.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/gfxemu
	-rmdir $(DESTDIR)$(PREFIX)/include/gfxemu

# Line editing, history and tab completion for `gfxemu debug` (tools/debug_cli.c) with libedit
# (libedit-dev, installed by scripts/deps.sh); without it the debugger reads plain lines.  Only
# the CLI links it, never libgfxemu.
HAVE_LIBEDIT := $(shell printf '\#include <editline/readline.h>\n' | $(CC) -E -x c - \
	>/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_LIBEDIT),1)
$(BUILD)/obj/tools/debug_cli.o: CPPFLAGS += -DGFXEMU_HAVE_LIBEDIT
$(CLI): LDLIBS += -ledit
endif
