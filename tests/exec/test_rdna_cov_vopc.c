/* test_rdna_cov_vopc.c - every RDNA V_CMP_* / V_CMPX_* / V_CMP_CLASS_* op of gfx1100 and gfx1201
 * on llvm-mc-22 encodings, in wave32 and wave64: the e32 form (VCC), the e64 form (an SGPR
 * destination), the DPP16 and DPP8 forms of both (32- and 16-bit types), and on gfx1100 the
 * true16 high-half operands (v4.h) in e32 and e64.  Found by the opcode coverage audit
 * (docs/testing.md: most RDNA compares ran in no test).
 *
 * Lanes pair 8 edge values per type (+-0, +-inf, NaN, a denormal, the ends of the integer
 * ranges, junk in the unused high half of 16-bit operands) under a partial EXEC.  Expected masks
 * are the predicates of the RDNA3/RDNA4 ISA manuals evaluated on the host: a V_CMP writes the
 * result for active lanes and 0 for inactive ones into VCC_LO/VCC or its SGPR(s) (one SGPR in
 * wave32); a V_CMPX writes EXEC only (RDNA has no SGPR destination for it).  The DPP forms use
 * the identity lane selects (quad_perm:[0,1,2,3], dpp8:[0,...,7]), so the same masks hold. */
#include "common/check.h"
#include "common/cov.h"
#include "exec/cmp_cases.h"

static wave *w;

/* Predicate names by the manuals' index (float: 0 F .. 15 T; integer: 0 F .. 7 T). gfx12 has no
 * F and T compares, and neither target has them for 16-bit integers. */
static const char *const fpred[16] = {"f", "lt",  "eq",  "le",  "gt",  "lg",  "ge",  "o",
                                      "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"};

static const char *pname(int t, int p) { return is_float(t) ? fpred[p] : ipred[p]; }
/* The compares the engine runs: the integer F and T compares of gfx11 decode but are not in
 * its RDNA allowlist (they fault as unimplemented). */
static int exists(int g12, int t, int p) {
    int last = npred(t) - 1;
    return !((p == 0 || p == last) && (g12 || !is_float(t)));
}

/* Lane l compares vals[l % 8] with vals[(l / 8 + half * 4) % 8]: wave64 pairs all 64, wave32
 * half of them per run (two runs, half 0 and 1). */
static uint64_t opa(int t, int l) { return vals[t][l % 8]; }
static uint64_t opb(int t, int l, int half) { return vals[t][(l / 8 + half * 4) % 8]; }

static uint64_t exec0(int w64) {
    uint64_t e = ~((1ull << 5) | (1ull << 20));
    return w64 ? e & ~((1ull << 40) | (1ull << 63)) : e & 0xffffffffull;
}

/* v[0:1] = a, v[2:3] = b; 16-bit types: junk in the high halves of v0/v2, and the values in the
 * high halves of v4/v5 (for the true16 .h forms) over junk low halves. */
static void setup(int t, int w64, int half) {
    memset(w, 0, sizeof *w);
    w->mode = 0x3f0;
    for (int l = 0; l < 64; l++) {
        uint64_t a = opa(t, l), b = opb(t, l, half);
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
    uint64_t e = exec0(w64);
    wave_set_exec(w, e);
    w->s[100] = (uint32_t)e, w->s[101] = (uint32_t)(e >> 32);
}

static uint64_t sreg(int r, int w64) { return w->s[r] | (w64 ? (uint64_t)w->s[r + 1] << 32 : 0); }

/* Forms: 0 e32, 1 e64, 2 e32 DPP16, 3 e64 DPP16, 4 e32 DPP8, 5 e64 DPP8, 6 e32 .h, 7 e64 .h */
enum { NFORM = 8 };
static int form_ok(const char *arch, int t, int f) {
    if (f >= 2 && f <= 5 && (is64(t) || t == TI16 || t == TU16))
        return 0; /* no DPP for 64-bit operands; none runs for 16-bit integers (rdna.c T16CMP) */
    if (f >= 6 && !(is16(t) && !strncmp(arch, "gfx1100", 7)))
        return 0; /* VGPR halves: gfx11 true16 only */
    return 1;
}

static size_t emit(char *o, size_t cap, int t, int p, int f, int cmpx, int r, int w64) {
    const char *A = is64(t) ? "v[0:1]" : f >= 6 ? "v4.h" : "v0";
    const char *B = is64(t) ? "v[2:3]" : f >= 6 ? "v5.h" : "v2";
    const char *vcc = w64 ? "vcc" : "vcc_lo", *exec = w64 ? "exec" : "exec_lo";
    const char *mov = w64 ? "s_mov_b64" : "s_mov_b32";
    static const char *const sfx[NFORM] = {"_e32", "_e64",     "_dpp", "_e64_dpp",
                                           "_dpp", "_e64_dpp", "_e32", "_e64"};
    static const char *const dpp[NFORM] = {"",
                                           "",
                                           " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
                                           " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
                                           " dpp8:[0,1,2,3,4,5,6,7]",
                                           " dpp8:[0,1,2,3,4,5,6,7]",
                                           "",
                                           ""};
    char dst[32];
    int e64 = f == 1 || f == 3 || f == 5 || f == 7;
    if (w64)
        snprintf(dst, sizeof dst, "s[%d:%d]", r, r + 1);
    else
        snprintf(dst, sizeof dst, "s%d", r);
    size_t n = 0;
    if (cmpx) /* save the new EXEC, restore the partial one (s100 or s[100:101]) */
        n += (size_t)snprintf(o + n, cap - n, "v_cmpx_%s_%s%s %s, %s%s\n%s %s, %s\n%s %s, %s\n",
                              pname(t, p), tname[t], sfx[f], A, B, dpp[f], mov, dst, exec, mov,
                              exec, w64 ? "s[100:101]" : "s100");
    else if (e64)
        n += (size_t)snprintf(o + n, cap - n, "v_cmp_%s_%s%s %s, %s, %s%s\n", pname(t, p), tname[t],
                              sfx[f], dst, A, B, dpp[f]);
    else
        n += (size_t)snprintf(o + n, cap - n, "v_cmp_%s_%s%s %s, %s, %s%s\n%s %s, %s\n",
                              pname(t, p), tname[t], sfx[f], vcc, A, B, dpp[f], mov, dst, vcc);
    return n;
}

/* One run per group of 5 predicates (5 x 8 forms x 2 SGPRs stay below s100). */
static void test_type(const char *arch, int g12, int w64, int t) {
    for (int half = 0; half < (w64 ? 1 : 2); half++)
        for (int cmpx = 0; cmpx < 2; cmpx++)
            for (int p0 = 0; p0 < npred(t); p0 += 5) {
                char text[16384];
                size_t n = 0;
                int nf = 0, fr[16][NFORM];
                for (int p = 0; p < npred(t); p++)
                    for (int f = 0; f < NFORM; f++) {
                        fr[p][f] = -1;
                        if (p < p0 || p >= p0 + 5 || !exists(g12, t, p) || !form_ok(arch, t, f))
                            continue;
                        fr[p][f] = 2 * nf++;
                        n += emit(text + n, sizeof text - n, t, p, f, cmpx, fr[p][f], w64);
                    }
                if (!nf)
                    continue;
                setup(t, w64, half);
                int st = cov_run(w, arch, text);
                CHECK(st == WAVE_DONE, "%s %s %s: status %d (fault %d op %s pc %u)", arch,
                      cmpx ? "cmpx" : "cmp", tname[t], st, w->fault.kind, isa_op_names[w->fault.op],
                      w->fault.pc);
                if (st != WAVE_DONE)
                    continue;
                for (int p = 0; p < npred(t); p++) {
                    uint64_t want = 0;
                    for (int l = 0; l < 64; l++)
                        want |= (uint64_t)cmp_ref(t, p, opa(t, l), opb(t, l, half)) << l;
                    want &= exec0(w64);
                    for (int f = 0; f < NFORM; f++) {
                        if (fr[p][f] < 0)
                            continue;
                        uint64_t got = sreg(fr[p][f], w64);
                        CHECK(got == want, "%s %s_%s_%s form %d half %d: %016llx, want %016llx",
                              arch, cmpx ? "v_cmpx" : "v_cmp", pname(t, p), tname[t], f, half,
                              (unsigned long long)got, (unsigned long long)want);
                    }
                }
            }
}

/* RDNA3 ISA V_CMP_CLASS_*: S1 is a mask over the ten classes, bit 0 signaling NaN, 1 quiet NaN,
 * 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. */

static void test_class(const char *arch, int w64) {
    static const uint64_t cv[3][10] = {
        {0x7c01, 0x7e00, 0xfc00, 0xc000, 0x8001, 0x8000, 0x0000, 0x03ff, 0x3c00, 0x7c00},
        {0x7f800001, 0x7fc00000, 0xff800000, 0xc0000000, 0x807fffff, 0x80000000, 0, 1, 0x3f800000,
         0x7f800000},
        {0x7ff0000000000001, 0x7ff8000000000000, 0xfff0000000000000, 0xc000000000000000,
         0x800fffffffffffff, 0x8000000000000000, 0, 1, 0x3ff0000000000000, 0x7ff0000000000000},
    };
    const char *vcc = w64 ? "vcc" : "vcc_lo", *exec = w64 ? "exec" : "exec_lo";
    const char *mov = w64 ? "s_mov_b64" : "s_mov_b32", *save = w64 ? "s[100:101]" : "s100";
    for (int t = TF16; t <= TF64; t++) {
        const char *A = t == TF64 ? "v[0:1]" : "v0";
        char text[1024], d[4][16];
        for (int k = 0; k < 4; k++)
            snprintf(d[k], sizeof d[k], w64 ? "s[%d:%d]" : "s%d", 10 + 2 * k, 11 + 2 * k);
        snprintf(text, sizeof text,
                 "v_cmp_class_%s_e32 %s, %s, v2\n%s %s, %s\n"
                 "v_cmp_class_%s_e64 %s, %s, v2\n"
                 "v_cmpx_class_%s_e32 %s, v2\n%s %s, %s\n%s %s, %s\n"
                 "v_cmpx_class_%s_e64 %s, v2\n%s %s, %s\n%s %s, %s\n",
                 tname[t], vcc, A, mov, d[0], vcc, tname[t], d[1], A, tname[t], A, mov, d[2], exec,
                 mov, exec, save, tname[t], A, mov, d[3], exec, mov, exec, save);
        memset(w, 0, sizeof *w);
        w->mode = 0x3f0;
        uint64_t want = 0, e = exec0(w64);
        for (int l = 0; l < 64; l++) {
            uint64_t a = cv[t][l % 10];
            /* lane l's mask: one class bit, or (l >= 40) all bits but one */
            uint32_t m = l < 40 ? 1u << ((l / 10 + l) % 10) : 0x3ffu & ~(1u << (l % 10));
            w->v[0][l] = (uint32_t)a, w->v[1][l] = (uint32_t)(a >> 32);
            w->v[2][l] = m;
            want |= (uint64_t)((m >> cmp_class_of(t, a)) & 1) << l;
        }
        want &= e;
        wave_set_exec(w, e);
        w->s[100] = (uint32_t)e, w->s[101] = (uint32_t)(e >> 32);
        int st = cov_run(w, arch, text);
        CHECK(st == WAVE_DONE, "%s class %s: status %d (fault %d op %s)", arch, tname[t], st,
              w->fault.kind, isa_op_names[w->fault.op]);
        for (int k = 0; st == WAVE_DONE && k < 4; k++)
            CHECK(sreg(10 + 2 * k, w64) == want,
                  "%s v_cmp%s_class_%s form %d: %016llx want %016llx", arch, k >= 2 ? "x" : "",
                  tname[t], k, (unsigned long long)sreg(10 + 2 * k, w64), (unsigned long long)want);
    }
}

int main(void) {
    w = calloc(1, sizeof *w);
    static const char *const arch[4] = {"gfx1100", "gfx1100:wavefrontsize64", "gfx1201",
                                        "gfx1201:wavefrontsize64"};
    for (int a = 0; a < 4; a++) {
        for (int t = 0; t < NT; t++)
            test_type(arch[a], a >= 2, a & 1, t);
        test_class(arch[a], a & 1);
    }
    free(w);
    return check_summary("test_rdna_cov_vopc");
}
