/* test_gpr_idx.c - VGPR indexing (s_set_gpr_idx_on/off/idx/mode), which clang emits for private
 * arrays with dynamic indices, on llvm-mc-22 snippets. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wave *w;

/* Every VGPR r of lane l starts as r * 1000 + l; s2 = 2 is the index most cases use. */
static int run(const char *arch, const char *text) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
    for (unsigned r = 0; r < 256; r++)
        for (unsigned l = 0; l < 64; l++)
            w->v[r][l] = r * 1000 + l;
    w->s[2] = 2;
    return run_snippet(w, arch, text);
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        const char *ar = arches[a];
        CHECK(run(ar, "s_set_gpr_idx_on s2, gpr_idx(SRC0)\nv_mov_b32 v1, v10\ns_set_gpr_idx_off\n"
                      "v_mov_b32 v3, v10") == WAVE_DONE,
              "%s src0", ar);
        CHECK(w->v[1][5] == 12 * 1000 + 5 && w->v[3][5] == 10 * 1000 + 5, "%s src0: %u %u", ar,
              w->v[1][5], w->v[3][5]);
        CHECK((w->s[124] & 0xf0ff) == (2 | 1u << 12), "%s m0 = %x", ar, w->s[124]);

        CHECK(run(ar, "s_set_gpr_idx_on s2, gpr_idx(DST)\nv_mov_b32 v20, v5\ns_set_gpr_idx_off") ==
                  WAVE_DONE,
              "%s dst", ar);
        CHECK(w->v[22][7] == 5 * 1000 + 7 && w->v[20][7] == 20 * 1000 + 7, "%s dst: %u %u", ar,
              w->v[22][7], w->v[20][7]);

        /* s_set_gpr_idx_idx changes the index while indexing stays on. */
        CHECK(run(ar, "s_set_gpr_idx_on s2, gpr_idx(SRC0)\ns_mov_b32 s3, 7\ns_set_gpr_idx_idx s3\n"
                      "v_mov_b32 v1, v10\ns_set_gpr_idx_off") == WAVE_DONE,
              "%s idx", ar);
        CHECK(w->v[1][0] == 17 * 1000, "%s idx: %u", ar, w->v[1][0]);

        /* SALU operands are never indexed; an index past v255 faults. */
        CHECK(
            run(ar, "s_movk_i32 s2, 250\ns_set_gpr_idx_on s2, gpr_idx(SRC0)\nv_mov_b32 v1, v10") ==
                WAVE_FAULT,
            "%s out of range", ar);
    }
    free(w);
    return check_summary("gpr_idx");
}
