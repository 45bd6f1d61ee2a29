/* test_cov_vopc.c - every V_CMP_* / V_CMPX_* / V_CMP_CLASS_* op on llvm-mc-22 encodings, in its
 * e32, e64 and (16/32-bit types) SDWA forms, on gfx950 and gfx942.
 *
 * Lanes pair up 8 edge values per type (±0, ±inf, NaN, denormal, extremes of the integer
 * range, and for 16-bit types junk in the unused high half), under a partial EXEC.  Expected
 * masks come from the manual's predicate definitions evaluated on the host: a compare writes
 * its result for active lanes and 0 for inactive ones; V_CMPX_* also writes EXEC. */
#include "common/check.h"
#include "common/cov.h"
#include "exec/cmp_cases.h"

static wave *w;
static const uint64_t EXEC0 = ~((1ull << 5) | (1ull << 40) | (1ull << 63));

static const char *const fpred[16] = {"f", "lt",  "eq",  "le",  "gt",  "lg",  "ge",  "o",
                                      "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};

static const char *pname(int t, int p) { return is_float(t) ? fpred[p] : ipred[p]; }

static uint64_t opa(int t, int l) { return vals[t][l % 8]; }
static uint64_t opb(int t, int l) { return vals[t][l / 8]; }

/* v[0:1] = a, v[2:3] = b (16-bit types: junk high half in v0/v2, the value in the high half of
 * v4/v5 for the SDWA WORD_1 forms). */
static void setup(int t) {
    memset(w, 0, sizeof *w);
    w->mode = 0x3f0;
    for (int l = 0; l < 64; l++) {
        uint64_t a = opa(t, l), b = opb(t, l);
        if (is16(t)) {
            w->v[0][l] = (uint32_t)a | 0xdead0000u;
            w->v[2][l] = (uint32_t)b | 0xbeef0000u;
            w->v[4][l] = (uint32_t)a << 16 | 0x5a5a;
            w->v[5][l] = (uint32_t)b << 16 | 0xa5a5;
        } else {
            w->v[0][l] = (uint32_t)a, w->v[1][l] = (uint32_t)(a >> 32);
            w->v[2][l] = (uint32_t)b, w->v[3][l] = (uint32_t)(b >> 32);
        }
    }
    wave_set_exec(w, EXEC0);
    w->s[100] = (uint32_t)EXEC0, w->s[101] = (uint32_t)(EXEC0 >> 32);
}

static uint64_t sgpr64(int r) { return w->s[r] | (uint64_t)w->s[r + 1] << 32; }

static void test_type(const char *arch, int t) {
    const char *A = is64(t) ? "v[0:1]" : "v0", *B = is64(t) ? "v[2:3]" : "v2";
    int np = npred(t), forms = is64(t) ? 2 : 3;
    for (int cmpx = 0; cmpx < 2; cmpx++) {
        char text[8192];
        size_t n = 0;
        /* form 0: e32 (VCC copied to s[2k]), 1: e64 into s[2k], 2: SDWA into s[2k] */
        for (int p = 0; p < np; p++)
            for (int f = 0; f < forms; f++) {
                int r = 2 * (p * forms + f);
                const char *op = cmpx ? "v_cmpx" : "v_cmp";
                if (f == 0)
                    n += (size_t)snprintf(text + n, sizeof text - n,
                                          "%s_%s_%s_e32 vcc, %s, %s\ns_mov_b64 s[%d:%d], %s\n", op,
                                          pname(t, p), tname[t], A, B, r, r + 1,
                                          cmpx ? "exec" : "vcc");
                else if (f == 1)
                    n += (size_t)snprintf(text + n, sizeof text - n,
                                          "%s_%s_%s_e64 s[%d:%d], %s, %s\n", op, pname(t, p),
                                          tname[t], cmpx ? 98 : r, cmpx ? 99 : r + 1, A, B);
                else if (is16(t))
                    n += (size_t)snprintf(text + n, sizeof text - n,
                                          "%s_%s_%s_sdwa s[%d:%d], v4, v5 src0_sel:WORD_1 "
                                          "src1_sel:WORD_1\n",
                                          op, pname(t, p), tname[t], cmpx ? 98 : r,
                                          cmpx ? 99 : r + 1);
                else
                    n += (size_t)snprintf(text + n, sizeof text - n,
                                          "%s_%s_%s_sdwa s[%d:%d], v0, v2 src0_sel:DWORD "
                                          "src1_sel:DWORD\n",
                                          op, pname(t, p), tname[t], cmpx ? 98 : r,
                                          cmpx ? 99 : r + 1);
                if (cmpx) {
                    if (f != 0) /* the sdst must equal the new EXEC */
                        n += (size_t)snprintf(text + n, sizeof text - n,
                                              "s_mov_b64 s[%d:%d], exec\ns_cmp_eq_u64 s[98:99], "
                                              "exec\ns_cselect_b32 s96, 1, 0\n"
                                              "s_add_u32 s97, s97, s96\n",
                                              r, r + 1);
                    n +=
                        (size_t)snprintf(text + n, sizeof text - n, "s_mov_b64 exec, s[100:101]\n");
                }
            }
        setup(t);
        int st = cov_run(w, arch, text);
        if (st == COV_NOT_ON_TARGET)
            continue;
        CHECK(st == WAVE_DONE, "%s %s %s: status %d (fault %d op %s pc %u)", arch,
              cmpx ? "cmpx" : "cmp", tname[t], st, w->fault.kind, isa_op_names[w->fault.op],
              w->fault.pc);
        if (st != WAVE_DONE)
            continue;
        for (int p = 0; p < np; p++) {
            uint64_t want = 0;
            for (int l = 0; l < 64; l++)
                want |= (uint64_t)cmp_ref(t, p, opa(t, l), opb(t, l)) << l;
            want &= EXEC0;
            for (int f = 0; f < forms; f++) {
                int r = 2 * (p * forms + f);
                uint64_t got = sgpr64(r);
                CHECK(got == want, "%s %s_%s_%s form %d: %016llx, want %016llx", arch,
                      cmpx ? "v_cmpx" : "v_cmp", pname(t, p), tname[t], f, (unsigned long long)got,
                      (unsigned long long)want);
            }
        }
        if (cmpx)
            CHECK(w->s[97] == (unsigned)(np * (forms - 1)), "%s cmpx %s: sdst != exec %u times",
                  arch, tname[t], np * (forms - 1) - w->s[97]);
    }
}

/* V_CMP_CLASS: lane l tests value l % 12 against the class mask 1 << (l / 12 ... ) variants
 * (cmp_class_of(), cmp_cases.h). */

static void test_class(const char *arch) {
    static const uint64_t cv[3][10] = {
        {0x7c01, 0x7e00, 0xfc00, 0xc000, 0x8001, 0x8000, 0x0000, 0x03ff, 0x3c00, 0x7c00},
        {0x7f800001, 0x7fc00000, 0xff800000, 0xc0000000, 0x807fffff, 0x80000000, 0, 1, 0x3f800000,
         0x7f800000},
        {0x7ff0000000000001, 0x7ff8000000000000, 0xfff0000000000000, 0xc000000000000000,
         0x800fffffffffffff, 0x8000000000000000, 0, 1, 0x3ff0000000000000, 0x7ff0000000000000},
    };
    for (int t = TF16; t <= TF64; t++) {
        const char *A = t == TF64 ? "v[0:1]" : "v0";
        char text[1024];
        snprintf(text, sizeof text,
                 "v_cmp_class_%s_e32 vcc, %s, v2\ns_mov_b64 s[10:11], vcc\n"
                 "v_cmp_class_%s_e64 s[12:13], %s, v2\n"
                 "v_cmpx_class_%s_e64 s[14:15], %s, v2\ns_mov_b64 s[16:17], exec\n"
                 "s_mov_b64 exec, s[100:101]\n"
                 "v_cmpx_class_%s_e32 vcc, %s, v2\ns_mov_b64 s[18:19], exec\n"
                 "s_mov_b64 exec, s[100:101]\n%s",
                 tname[t], A, tname[t], A, tname[t], A, tname[t], A,
                 t == TF64   ? ""
                 : t == TF16 ? "v_cmp_class_f16_sdwa s[20:21], v4, v2 src0_sel:WORD_1 "
                               "src1_sel:DWORD\nv_cmpx_class_f16_sdwa s[22:23], v4, v2 "
                               "src0_sel:WORD_1 src1_sel:DWORD\n"
                             : "v_cmp_class_f32_sdwa s[20:21], v0, v2 src0_sel:DWORD "
                               "src1_sel:DWORD\nv_cmpx_class_f32_sdwa s[22:23], v0, v2 "
                               "src0_sel:DWORD src1_sel:DWORD\n");
        memset(w, 0, sizeof *w);
        w->mode = 0x3f0;
        uint64_t want = 0;
        for (int l = 0; l < 64; l++) {
            uint64_t u = cv[t][l % 10];
            /* masks: one class bit, its complement, all, none, and a spread pattern */
            uint32_t mask = l < 10   ? 1u << (l % 10)
                            : l < 20 ? ~(1u << (l % 10)) & 0x3ff
                            : l < 30 ? 0x3ff
                            : l < 40 ? 0
                                     : (uint32_t)(0x2a5 >> (l % 3));
            w->v[0][l] = (uint32_t)u | (t == TF16 ? 0x12340000u : 0);
            w->v[1][l] = (uint32_t)(u >> 32);
            w->v[4][l] = (uint32_t)u << 16;
            w->v[2][l] = mask;
            want |= (uint64_t)((mask >> cmp_class_of(t, u)) & 1) << l;
        }
        want &= EXEC0;
        wave_set_exec(w, EXEC0);
        w->s[100] = (uint32_t)EXEC0, w->s[101] = (uint32_t)(EXEC0 >> 32);
        int st = cov_run(w, arch, text);
        if (st == COV_NOT_ON_TARGET)
            continue;
        CHECK(st == WAVE_DONE, "%s class %s: status %d", arch, tname[t], st);
        int last = t == TF64 ? 18 : 22;
        for (int r = 10; r <= last; r += 2)
            CHECK(sgpr64(r) == want, "%s class %s s[%d]: %016llx, want %016llx", arch, tname[t], r,
                  (unsigned long long)sgpr64(r), (unsigned long long)want);
    }
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        for (int t = 0; t < NT; t++)
            test_type(arches[a], t);
        test_class(arches[a]);
    }
    free(w);
    return check_summary("cov_vopc");
}
