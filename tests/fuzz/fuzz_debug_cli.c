/* fuzz_debug_cli.c - libFuzzer target: random command lines for `gfxemu debug` (tools/debug_cli.c,
 * compiled into this target since the fuzz rule links libgfxemu's sources only), driving a debug
 * launch of the vecadd demo kernel: breakpoints, watchpoints, register and memory reads and
 * writes, stepping, wave selection.  The kernel is the code object run_fuzz.sh builds
 * ($GFXEMU_FUZZ_KERNEL, default build/fuzz/seeds/vecadd_gfx950.co); the CLI's output goes to
 * /dev/null. */
#include "../../tools/debug_cli.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gfx_device *dev;
static gfx_module *mod;
static const gfx_kernel *kern;
static uint64_t bufs[3];

static void setup(void) {
    const char *path = getenv("GFXEMU_FUZZ_KERNEL");
    if (!path)
        path = "build/fuzz/seeds/vecadd_gfx950.co";
    FILE *f = fopen(path, "rb");
    static uint8_t co[1 << 20];
    size_t n = f ? fread(co, 1, sizeof co, f) : 0;
    if (f)
        fclose(f);
    char err[256];
    if (!n || gfx_module_load_mem(co, n, &mod, err, sizeof err) != GFX_OK ||
        gfx_module_kernel(mod, "vecadd", &kern) != GFX_OK ||
        gfx_device_create(gfx_module_arch(mod), 1, &dev) != GFX_OK) {
        fprintf(stderr, "fuzz_debug_cli: cannot load the vecadd kernel from %s\n", path);
        abort();
    }
    for (int i = 0; i < 3; i++)
        if (gfx_buffer_alloc(dev, 128 * 4, &bufs[i]) != GFX_OK)
            abort();
    if (!freopen("/dev/null", "w", stdout))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dev)
        setup();
    if (size > 4096)
        return 0;
    FILE *in = fmemopen((void *)data, size ? size : 1, "r");
    if (!in)
        return 0;
    if (!size)
        fgetc(in);
    struct {
        uint64_t a, b, c;
        int32_t n;
    } args = {bufs[0], bufs[1], bufs[2], 100};
    cli_buffer cb[3] = {{0, "a", bufs[0], 512}, {1, "b", bufs[1], 512}, {2, "c", bufs[2], 512}};
    cli_program prog = {mod, kern, cb, 3};
    gfx_debug_session *s;
    if (gfx_debug_create(dev, &s) != GFX_OK)
        abort();
    const uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    gfx_launch_options o = {200000, 0, 0, 0};
    gfx_stats st;
    cli_debug(s, &prog, in, grid, block, &args, sizeof args, &o, &st);
    gfx_debug_free(s);
    fclose(in);
    return 0;
}
