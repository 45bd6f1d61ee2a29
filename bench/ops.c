/* ops.c - a per-instruction cost survey (make bench-ops): for each line of a file of instruction
 * texts (bench/ops.txt by default; gfx950 unless OPS_ARCH names another target), a snippet of
 * COPIES (256) copies of it runs on one wave64 of the snippet rig (tests/common/snippet.h: 64 lanes
 * on, v0-v3 = 4 * lane, v4 = 2 * lane, v5 = lane, v6-v39 1.5 + a lane-dependent bit, v40-v43
 * private offsets over 16, 4, 2 and 8 dwords, v[44:45] FLAT addresses over 16 private dwords,
 * s[0:1] a 256-byte global buffer, s[8:11] a buffer resource over it, 256 bytes of LDS), 100 times,
 * best of 7 rounds.  Printed per line: ns per wave-instruction above COPIES copies of s_nop (the
 * rig's reset, about 9 us, and the run loop), and the total.  The point is the outliers: an
 * instruction whose handler takes a slow path costs tens to thousands of ns where a plain one costs
 * 1-5 (docs/perf.md, session 22).  Not a figure of issue 16's table; the machine's load moves every
 * line alike.
 *
 * A line may hold several instructions separated by '|' (a stretch of a kernel, a native block
 * with the instruction that ends it): then 256 / n copies of the n, and the cost is per
 * instruction.  OPS_LOOPS=N runs the copies N times in a loop on s41 in each run (the loop's
 * three scalar instructions a pass are in the s_nop baseline as well), so that the rig's reset
 * no longer drowns a cost of a few ns: how session 31 measured the exp blocks. */
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static snippet_rig rig;

/* Copies of a line per run: enough that the rig's reset does not drown an instruction's cost
 * (with 64, a 30 ns instruction was a fifth of a run and the reset's spread hid it). */
#define COPIES 256
#define RUNS 100

/* ns per instruction of text (COPIES / n copies of its n instructions, the whole `loops` times),
 * best of 7 rounds of RUNS runs; -1 when it does not assemble, -2 when a run does not end
 * normally. */
static double cost(const char *arch, const char *line, int loops) {
    size_t len = strlen(line) + 1, n = 0;
    int per = 1; /* instructions in the line ('|' between them) */
    for (const char *c = line; *c; c++)
        per += *c == '|';
    int copies = per < COPIES ? COPIES / per : 1;
    char *text = malloc((size_t)copies * len + 128);
    if (loops > 1)
        n += (size_t)sprintf(text, "s_mov_b32 s41, %d\nops_top:\n", loops);
    for (int i = 0; i < copies; i++) {
        for (const char *c = line; *c; c++)
            text[n++] = *c == '|' ? '\n' : *c;
        text[n++] = '\n';
    }
    if (loops > 1)
        n += (size_t)sprintf(
            text + n, "s_sub_u32 s41, s41, 1\ns_cmp_lg_u32 s41, 0\ns_cbranch_scc1 ops_top\n");
    text[n] = 0;
    snippet_prog sp = {0};
    int bad = snippet_prog_load(&sp, arch, text) != 0;
    free(text);
    if (bad)
        return -1;
    double best = 1e30;
    for (int round = 0; round < 7 && best >= 0; round++) {
        double t0 = now();
        for (int r = 0; r < RUNS; r++) {
            wave *w = &rig.wv;
            snippet_rig_reset(&rig, ~0ull, 0x3f0);
            for (int v = 0; v < 40; v++)
                for (uint32_t l = 0; l < 64; l++)
                    w->v[v][l] = v < 4 ? 4 * l : v == 4 ? 2 * l : v == 5 ? l : 0x3fc00000u + l;
            for (uint32_t l = 0; l < 64; l++) { /* private offsets (the rig's 16 dwords a lane) */
                w->v[40][l] = (l * 7 % 16) * 4;
                w->v[41][l] = (l * 5 % 4) * 4;
                w->v[42][l] = (l % 2) * 4;
                w->v[43][l] = (l * 3 % 8) * 4;
                w->v[44][l] = (l * 7 % 16) * 4; /* v[44:45]: FLAT addresses of them */
                w->v[45][l] = (uint32_t)(GMEM_PRIVATE_APERTURE >> 32);
            }
            for (int s = 4; s < 40; s++)
                w->s[s] = 0x3fc00000u + (uint32_t)s;
            w->s[0] = (uint32_t)rig.buf;
            w->s[1] = (uint32_t)(rig.buf >> 32);
            snippet_set_rsrc(w, 8, rig.buf, 0, 256, 0x27000);
            w->prog = &sp.prog;
            w->pc = 0;
            w->budget = ((uint64_t)copies * (uint64_t)per + 4) * (uint64_t)loops + 1000;
            w->status = WAVE_RUNNING;
            wave_run(w);
            if (w->status != WAVE_DONE)
                best = -2;
        }
        double t = (now() - t0) / RUNS / ((double)copies * per * loops) * 1e9;
        if (best >= 0 && t < best)
            best = t;
    }
    snippet_prog_free(&sp);
    return best;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "bench/ops.txt";
    const char *arch = getenv("OPS_ARCH") ? getenv("OPS_ARCH") : "gfx950";
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    if (snippet_rig_open(&rig))
        return 1;
    int loops = getenv("OPS_LOOPS") ? atoi(getenv("OPS_LOOPS")) : 1;
    if (loops < 1 || loops > 1000000) {
        fprintf(stderr, "ops: OPS_LOOPS must be 1 to 1000000\n");
        return 1;
    }
    double base = cost(arch, "s_nop 0", loops);
    printf("# %s, ns per wave-instruction: above s_nop (%.1f ns), total\n", arch, base);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        double c = cost(arch, line, loops);
        if (c == -1)
            printf("%8s %8s  %s\n", "-", "asm?", line);
        else if (c == -2)
            printf("%8s %8s  %s\n", "-", "fault", line);
        else
            printf("%8.1f %8.1f  %s\n", c - base, c, line);
    }
    fclose(f);
    snippet_rig_close(&rig);
    return 0;
}
