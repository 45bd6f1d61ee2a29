/* fuzz_args.c - libFuzzer target: random `gfxemu run` argument lists (tools/gfxemu.c, compiled
 * into this target with the CLI's other files, its `main` renamed) against real kernel metadata:
 * the --arg spec parser (scalars, in/out/inout/zero, local:, bytes:HEX), the checks of every
 * spec against the kernel's metadata, __local placement, output files, and the launch.
 *
 * Input: byte 0 picks a kernel of tests/tools/args.cl (built by run_fuzz.sh:
 * $GFXEMU_FUZZ_ARGS, default build/fuzz/seeds/args_gfx950.co), byte 1 a few option flags, the
 * rest is one command-line word per line.  The target runs in a private temporary directory and
 * skips words that name other directories ('/') or sizes above 1 MiB, so that outputs stay
 * small and inside it.  The CLI's messages go to /dev/null. */
#define main gfxemu_cli_main
#include "../../tools/debug_cli.c"
#include "../../tools/gfxemu.c"
#include "../../tools/info.c"
#include "../../tools/counters.c"
#include "../../tools/npy.c"
#include "../../tools/profile_html.c"
#include "../../tools/progress.c"
#include "../../tools/exec.c"
#undef main

#include <fcntl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char co_path[4096];
static int devnull = -1, workdir = -1, origdir = -1;

static void setup(void) {
    const char *p = getenv("GFXEMU_FUZZ_ARGS");
    if (!p)
        p = "build/fuzz/seeds/args_gfx950.co";
    if (!realpath(p, co_path)) {
        fprintf(stderr, "fuzz_args: no code object at %s (run_fuzz.sh builds it)\n", p);
        abort();
    }
    char dir[] = "/tmp/gfxemu-fuzz-args-XXXXXX";
    /* libFuzzer writes its corpus relative to the starting directory: go to the private one
     * only around each run */
    if (!mkdtemp(dir) || (workdir = open(dir, O_RDONLY | O_DIRECTORY)) < 0 ||
        (origdir = open(".", O_RDONLY | O_DIRECTORY)) < 0)
        abort();
    char in[sizeof dir + 8];
    snprintf(in, sizeof in, "%s/in.bin", dir);
    /* an input file the specs may name */
    FILE *f = fopen(in, "wb");
    for (int i = 0; f && i < 1024; i++)
        fputc(i * 7, f);
    if (!f || fclose(f) != 0)
        abort();
    devnull = open("/dev/null", O_WRONLY);
    if (devnull < 0 || !freopen("/dev/null", "w", stdout))
        abort();
}

/* A word that could write outside the directory or allocate much: skipped. */
static int unsafe(const char *w) {
    if (strchr(w, '/'))
        return 1;
    const char *num = strrchr(w, ':');
    if (num && (strncmp(w, "out:", 4) == 0 || strncmp(w, "zero:", 5) == 0 ||
                strncmp(w, "local:", 6) == 0 || strncmp(w, "--private-size", 14) == 0)) {
        unsigned long long v = strtoull(num + 1, NULL, 0);
        return v > (1u << 20);
    }
    return strlen(w) > 256;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const kernels[] = {"kinds", "poke", "fill", "typed", "nosuch"};
    if (devnull < 0)
        setup();
    if (size < 2 || size > 4096)
        return 0;
    char *text = malloc(size - 1);
    if (!text)
        return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = 0;
    char *argv[64];
    int argc = 0;
    argv[argc++] = "run";
    argv[argc++] = co_path;
    argv[argc++] = (char *)kernels[data[0] % 5];
    argv[argc++] = "--grid";
    argv[argc++] = data[1] & 1 ? "2" : "1";
    argv[argc++] = "--block";
    argv[argc++] = data[1] & 2 ? "128" : "64";
    argv[argc++] = "--max-insts";
    argv[argc++] = "200000";
    argv[argc++] = "--threads";
    argv[argc++] = data[1] & 4 ? "2" : "1";
    if (data[1] & 8)
        argv[argc++] = "--keep-partial";
    for (char *w = strtok(text, "\n"); w && argc < 60; w = strtok(NULL, "\n")) {
        if (unsafe(w))
            goto done;
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    fflush(stderr);
    int saved = dup(2);
    dup2(devnull, 2);
    if (fchdir(workdir) != 0)
        abort();
    run_main(argc, argv, 0);
    if (fchdir(origdir) != 0)
        abort();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
done:
    free(text);
    return 0;
}
