# tegra/tegra.mk - libnvtegra (the Jetson Orin driver), its simulated kernel driver, tests and
# hardware tools.  Included from the top-level Makefile; see docs/tegra.md.
#
#   tegra/*.c             -> build/libnvtegra.a and build/libnvtegra.so (include/nvtegra.h)
#   tegra/sim/*.c         -> build/libnvtegra_sim.a (the simulated nvmap + nvgpu, tests only)
#   tegra/tools/nvtegra-*.c -> build/nvtegra-check, build/nvtegra-bench (+ tegra/tools/suites.c,
#                            which the tests link too, so the check suites also run in CI)
#   tests/tegra/test_*.c  -> build/tests/tegra/test_*, linked with the two libraries above
#                            instead of libgfxemu (the top-level pattern rule is overridden by
#                            the static pattern rule below)
#   tests/tegra/hw_*.sh   -> run by tests/run_tests.sh; exit 77 there means "skipped: no Jetson"

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

$(BUILD)/obj/tegra/%.o: CPPFLAGS += -Itegra

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

all: $(TEGRA_LIB_A) $(TEGRA_LIB_SO) $(TEGRA_TOOLS)

-include $(TEGRA_OBJS:.o=.d) $(TEGRA_SIM_OBJS:.o=.d) \
	$(TEGRA_TOOL_SRCS:%.c=$(BUILD)/obj/%.d) $(TEGRA_TOOL_LIB:.o=.d)

# The simulator runs a GPU thread next to the driver: its tests belong under ThreadSanitizer.
TSAN_TESTS := $(TSAN_TESTS)|tegra/test_flow|tegra/test_bad|tegra/test_suites
