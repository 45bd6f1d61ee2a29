# tegra/tegra.mk - libnvtegra (the Jetson Orin driver), its simulated kernel driver, tests and
# hardware tools.  Included from the top-level Makefile; see docs/tegra.md.
#
# A component of its own: nothing here is built by `make all` or `make demo` (the emulator's
# build never waits for it), `make tegra` builds the library and tools, and `make check` builds
# and runs its tests (they are in TEST_BINS).  It shares no code with gfxemu: its objects see
# only tegra/include/ and tegra/, never include/ or src/.
#
#   tegra/*.c             -> build/libnvtegra.a and build/libnvtegra.so (tegra/include/nvtegra.h)
#   tegra/sim/*.c         -> build/libnvtegra_sim.a (the simulated nvmap + nvgpu, tests only)
#   tegra/tools/nvtegra-*.c -> build/nvtegra-check, build/nvtegra-bench (+ tegra/tools/suites.c,
#                            which the tests link too, so the check suites also run in CI)
#   tests/tegra/test_*.c  -> build/tests/tegra/test_*, linked with the two libraries above
#                            instead of libgfxemu (the top-level pattern rule is overridden by
#                            the static pattern rule below)
#   tests/tegra/hw_*.sh   -> run by tests/run_tests.sh; exit 77 there means "skipped: no Jetson"
#   tests/tegra/fuzz_cubin.c -> build/fuzz/fuzz_cubin, a libFuzzer target run by `make fuzz`
#                            (seeds in tests/tegra/corpus/fuzz_cubin/)

TEGRA_SRCS := $(sort $(wildcard tegra/*.c))
TEGRA_OBJS := $(TEGRA_SRCS:%.c=$(BUILD)/obj/%.o)
TEGRA_SIM_SRCS := $(sort $(wildcard tegra/sim/*.c))
TEGRA_SIM_OBJS := $(TEGRA_SIM_SRCS:%.c=$(BUILD)/obj/%.o)
TEGRA_TOOL_SRCS := $(sort $(wildcard tegra/tools/nvtegra-*.c))
TEGRA_TOOL_LIB := $(BUILD)/obj/tegra/tools/suites.o
TEGRA_TOOLS := $(TEGRA_TOOL_SRCS:tegra/tools/%.c=$(BUILD)/%)
TEGRA_TEST_SRCS := $(filter tests/tegra/%,$(TEST_SRCS))
TEGRA_TEST_BINS := $(TEGRA_TEST_SRCS:%.c=$(BUILD)/%)
TEGRA_LIB_A := $(BUILD)/libnvtegra.a
TEGRA_LIB_SO := $(BUILD)/libnvtegra.so
TEGRA_SIM_A := $(BUILD)/libnvtegra_sim.a

TEGRA_CPPFLAGS := -Itegra/include -Itegra
$(BUILD)/obj/tegra/%.o: CPPFLAGS := $(TEGRA_CPPFLAGS)
$(BUILD)/obj/tests/tegra/%.o: CPPFLAGS := -Itests $(TEGRA_CPPFLAGS)

.PHONY: tegra
tegra: $(TEGRA_LIB_A) $(TEGRA_LIB_SO) $(TEGRA_TOOLS)
# The hardware tests (tests/tegra/hw_*.sh) run the tools, so `make check` builds them with the
# test programs (check, check-sanitize and check-tsan all build TEST_BINS).
TEST_BINS += $(TEGRA_TOOLS)

$(TEGRA_LIB_A): $(TEGRA_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(TEGRA_LIB_SO): $(TEGRA_OBJS)
	$(CC) -shared $(ALL_CFLAGS) $(ALL_LDFLAGS) -Wl,-soname,libnvtegra.so $^ -o $@ -lpthread

$(TEGRA_SIM_A): $(TEGRA_SIM_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(TEGRA_TOOLS): $(BUILD)/%: $(BUILD)/obj/tegra/tools/%.o $(TEGRA_TOOL_LIB) $(TEGRA_LIB_A)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@ -ldl -lm -lpthread

$(TEGRA_TEST_BINS): $(BUILD)/tests/tegra/%: $(BUILD)/obj/tests/tegra/%.o $(TEGRA_TOOL_LIB) \
	    $(TEGRA_SIM_A) $(TEGRA_LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ -o $@ -lm -lpthread

# The cubin parser under libFuzzer: built from tegra/ sources only (the fuzz target #includes
# tegra/module.c to check the parsed kernels against the module's private copy of the image).
FUZZ_BINS += $(BUILD)/fuzz/fuzz_cubin
$(BUILD)/fuzz/fuzz_cubin: tests/tegra/fuzz_cubin.c $(TEGRA_SRCS) $(wildcard tegra/*.h tegra/include/*.h)
	@mkdir -p $(@D)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined $(TEGRA_CPPFLAGS) $< -o $@

-include $(TEGRA_OBJS:.o=.d) $(TEGRA_SIM_OBJS:.o=.d) \
	$(TEGRA_TOOL_SRCS:%.c=$(BUILD)/obj/%.d) $(TEGRA_TOOL_LIB:.o=.d)

# The simulator runs a GPU thread next to the driver: its tests belong under ThreadSanitizer.
TSAN_TESTS := $(TSAN_TESTS)|tegra/test_flow|tegra/test_bad|tegra/test_suites|tegra/test_abi|tegra/test_cubin
