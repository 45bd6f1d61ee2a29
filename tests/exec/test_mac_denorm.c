/* test_mac_denorm.c - the accumulating ops v_fmac_f64, v_mac_f16 and v_pk_fmac_f16 on llvm-mc-22
 * snippets.  Expected values are worked out by hand. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static wave *w;

static void reset(void)
{
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
}

int main(void)
{
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942"};
    for (int ai = 0; ai < 2; ai++) {
        const char *a = arches[ai];
        /* v_pk_fmac_f16 (VOP2, no op_sel_hi): each half of D += that half of S0 * S1:
         * (2, 1) * (1, 1) + (1, 2) = (3, 3); (-2, 0.5) * (4, 2) + (0, 0) = (-8, 1). */
        reset();
        w->v[0][0] = 0x40003c00, w->v[1][0] = 0x3c003c00, w->v[2][0] = 0x3c004000;
        w->v[0][1] = 0xc0003800, w->v[1][1] = 0x44004000, w->v[2][1] = 0;
        CHECK(run_snippet(w, a, "v_pk_fmac_f16_e32 v2, v0, v1") == WAVE_DONE, "%s pk_fmac runs", a);
        CHECK(w->v[2][0] == 0x42004200 && w->v[2][1] == 0xc8003c00,
              "%s v_pk_fmac_f16: %08x %08x, want 42004200 c8003c00", a, w->v[2][0], w->v[2][1]);
    }
    free(w);
    return check_summary("mac_denorm");
}
