/* test_cov_atomics.c - every integer and float atomic of SMEM (s_atomic_*, s_buffer_atomic_*),
 * FLAT, GLOBAL, MUBUF and DS on llvm-mc-22 encodings, gfx950, gfx942 and gfx90a, 32- and 64-bit.
 *
 * Vector forms: lane l works on its own address with old = E[l % 8] and data = E[l / 8], so the
 * 64 lanes cover every pair of 8 edge values (0, 1, 2, INT_MAX, INT_MIN, -2, -1, a big value):
 * inc/dec wrap, signed against unsigned min/max; lane 13 is outside EXEC and must leave memory
 * and its return register alone.  Expected values: the manual's atomic pseudocode (inc: old >=
 * data ? 0 : old + 1; dec: old == 0 || old > data ? data : old - 1; cmpswap: old == cmp ? src :
 * old; DS mskor: (old & ~data) | data2) computed on the host. */
#include "common/check.h"
#include "common/cov.h"

enum { ADD, SUB, RSUB, SWAP, AND, OR, XOR, SMIN, SMAX, UMIN, UMAX, INC, DEC, CAS, MSKOR, NK };
static const char *const gname[NK] = {"add",  "sub", "",     "swap",    "and",
                                      "or",   "xor", "smin", "smax",    "umin",
                                      "umax", "inc", "dec",  "cmpswap", ""};
static const char *const dname[NK] = {"add_%s", "sub_%s", "rsub_%s", "wrxchg_rtn_%s", "and_%s",
                                      "or_%s",  "xor_%s", "min_%s",  "max_%s",        "min_%s",
                                      "max_%s", "inc_%s", "dec_%s",  "cmpst_%s",      "mskor_%s"};
static const uint64_t E32[8] = {0,          1,          2,          0x7fffffff,
                                0x80000000, 0xfffffffe, 0xffffffff, 0x12345678};
static const uint64_t E64[8] = {
    0, 1, 2, 0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffffffe, ~0ull, 0x100000000};

static gmem *mem;
static uint64_t buf; /* 64 lanes x 8 bytes */
static wave *w;
static uint8_t lds[1024];

/* The new memory value (cmp: the compare value; d2: DS mskor's second data). */
static uint64_t ref(int k, int x2, uint64_t o, uint64_t d, uint64_t cmp, uint64_t d2) {
    uint64_t m = x2 ? ~0ull : 0xffffffffull, r;
    int64_t so = x2 ? (int64_t)o : (int32_t)o, sd = x2 ? (int64_t)d : (int32_t)d;
    switch (k) {
    case ADD: r = o + d; break;
    case SUB: r = o - d; break;
    case RSUB: r = d - o; break;
    case SWAP: r = d; break;
    case AND: r = o & d; break;
    case OR: r = o | d; break;
    case XOR: r = o ^ d; break;
    case SMIN: r = so < sd ? o : d; break;
    case SMAX: r = so > sd ? o : d; break;
    case UMIN: r = o < d ? o : d; break;
    case UMAX: r = o > d ? o : d; break;
    case INC: r = o >= d ? 0 : o + 1; break;
    case DEC: r = o == 0 || o > d ? d : o - 1; break;
    case CAS: r = o == cmp ? d : o; break;
    default: r = (o & ~d) | d2; break;
    }
    return r & m;
}

static void reset(void) {
    memset(w, 0, sizeof *w);
    memset(lds, 0, sizeof lds);
    wave_set_exec(w, ~(1ull << 13));
    w->mem = mem;
    w->lds = lds;
    w->lds_size = sizeof lds;
}

static uint64_t mem_rd(int fam, unsigned off, int x2) {
    uint64_t v = 0;
    if (fam == 3)
        memcpy(&v, lds + off, x2 ? 8 : 4);
    else
        gmem_read(mem, buf + off, &v, x2 ? 8 : 4);
    return v;
}
static void mem_wr(int fam, unsigned off, uint64_t v, int x2) {
    if (fam == 3)
        memcpy(lds + off, &v, x2 ? 8 : 4);
    else
        gmem_write(mem, buf + off, &v, x2 ? 8 : 4);
}
static void vset(int r, int l, uint64_t v, int x2) {
    w->v[r][l] = (uint32_t)v;
    if (x2)
        w->v[r + 1][l] = (uint32_t)(v >> 32);
}
static uint64_t vget(int r, int l, int x2) {
    return w->v[r][l] | (x2 ? (uint64_t)w->v[r + 1][l] << 32 : 0);
}

/* fam: 0 flat, 1 global, 2 buffer, 3 ds (rtn), 4 ds (no return) */
static void test_vector(const char *arch, int fam, int k, int x2) {
    static const char *const famname[] = {"flat", "global", "buffer", "ds", "ds"};
    char op[64], text[256], sfx[8];
    snprintf(sfx, sizeof sfx, "%s%d",
             k == SMIN || k == SMAX                                                   ? "i"
             : k == AND || k == OR || k == XOR || k == SWAP || k == CAS || k == MSKOR ? "b"
                                                                                      : "u",
             x2 ? 64 : 32);
    if (fam >= 3) {
        if (k == SWAP && fam == 4)
            return;
        char base[32];
        snprintf(base, sizeof base, dname[k], sfx);
        if (fam == 3 && k != SWAP) {
            char *u = strchr(base, '_');
            snprintf(op, sizeof op, "ds_%.*s_rtn%s", (int)(u - base), base, u);
        } else
            snprintf(op, sizeof op, "ds_%s", base);
    } else {
        if (k == RSUB || k == MSKOR)
            return;
        snprintf(op, sizeof op, "%s_atomic_%s%s", famname[fam], gname[k], x2 ? "_x2" : "");
    }
    /* registers: address v2 (v[2:3]); data v[4..]: src, then cmp (flat/global/buffer) or cmp,
     * then src (ds cmpst) / mask, then or-data (ds mskor); return v[10..] (buffer: into data) */
    const char *d1 = x2 ? "v[4:5]" : "v4", *dd = x2 ? "v[4:7]" : "v[4:5]",
               *d2 = x2 ? "v[6:7]" : "v5", *rv = x2 ? "v[10:11]" : "v10";
    int two = k == CAS || k == MSKOR;
    switch (fam) {
    case 0: snprintf(text, sizeof text, "%s %s, v[2:3], %s sc0", op, rv, two ? dd : d1); break;
    case 1: snprintf(text, sizeof text, "%s %s, v[2:3], %s, off sc0", op, rv, two ? dd : d1); break;
    case 2:
        snprintf(text, sizeof text, "%s %s, v2, s[12:15], 0 offen sc0", op, two ? dd : d1);
        break;
    case 3:
        if (two)
            snprintf(text, sizeof text, "%s %s, v2, %s, %s", op, rv, d1, d2);
        else
            snprintf(text, sizeof text, "%s %s, v2, %s", op, rv, d1);
        break;
    default:
        if (two)
            snprintf(text, sizeof text, "%s v2, %s, %s", op, d1, d2);
        else
            snprintf(text, sizeof text, "%s v2, %s", op, d1);
    }
    const uint64_t *E = x2 ? E64 : E32;
    int mfam = fam == 4 ? 3 : fam;
    reset();
    snippet_set_rsrc(w, 12, buf, 0, 512, 0);
    uint64_t o[64], d[64], c[64];
    for (int l = 0; l < 64; l++) {
        o[l] = E[l % 8], d[l] = E[l / 8];
        c[l] = l % 3 == 0 ? o[l] : E[(l + 3) % 8];
        mem_wr(mfam, 8 * l, o[l], x2);
        uint64_t a = fam <= 1 ? buf + 8 * l : 8u * l;
        w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
        int ds = fam >= 3;
        vset(4, l, ds && k == CAS ? c[l] : d[l], x2);
        vset(x2 ? 6 : 5, l, ds && k == CAS ? d[l] : k == MSKOR ? c[l] : c[l], x2);
        vset(10, l, 0x5555555555555555ull, x2);
    }
    int st = cov_run_done(w, arch, text);
    if (st == COV_NOT_ON_TARGET)
        return;
    if (st != WAVE_DONE)
        return;
    int bad = 0, rreg = fam == 2 ? 4 : 10;
    for (int l = 0; l < 64; l++) {
        uint64_t want = l == 13 ? o[l] : ref(k, x2, o[l], d[l], c[l], c[l]);
        uint64_t got = mem_rd(mfam, 8 * l, x2);
        uint64_t rwant = l == 13 ? (fam == 2 ? d[l] : 0x5555555555555555ull) : o[l];
        if (fam == 4)
            rwant = vget(rreg, l, x2);
        if (!x2)
            rwant &= 0xffffffff;
        if ((got != want || vget(rreg, l, x2) != rwant) && bad++ < 3)
            printf("  %s [%s] lane %d: old %llx data %llx cmp %llx: mem %llx want %llx, "
                   "ret %llx want %llx\n",
                   arch, text, l, (unsigned long long)o[l], (unsigned long long)d[l],
                   (unsigned long long)c[l], (unsigned long long)got, (unsigned long long)want,
                   (unsigned long long)vget(rreg, l, x2), (unsigned long long)rwant);
    }
    CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, text, bad);
}

/* Scalar atomics: 8 value pairs, pair p on the dword/qword at 16 * p with its data in
 * s[20 + 4p ...]; glc returns the old value. */
static void test_scalar(const char *arch, int buffer, int k, int x2) {
    if (k == RSUB || k == MSKOR)
        return;
    char text[2048];
    size_t n = 0;
    for (int p = 0; p < 8; p++) {
        int r = 20 + 4 * p;
        char dreg[16];
        if (k == CAS && x2)
            snprintf(dreg, sizeof dreg, "s[%d:%d]", r, r + 3);
        else if (k == CAS || x2)
            snprintf(dreg, sizeof dreg, "s[%d:%d]", r, r + 1);
        else
            snprintf(dreg, sizeof dreg, "s%d", r);
        n += (size_t)snprintf(text + n, sizeof text - n, "s_%satomic_%s%s %s, %s, 0x%x glc\n",
                              buffer ? "buffer_" : "", gname[k], x2 ? "_x2" : "", dreg,
                              buffer ? "s[8:11]" : "s[0:1]", 16 * p);
    }
    const uint64_t *E = x2 ? E64 : E32;
    uint64_t o[8], d[8], c[8];
    reset();
    w->s[0] = (uint32_t)buf, w->s[1] = (uint32_t)(buf >> 32);
    snippet_set_rsrc(w, 8, buf, 0, 512, 0);
    for (int p = 0; p < 8; p++) {
        int r = 20 + 4 * p;
        o[p] = E[p], d[p] = E[(p * 3 + 1) % 8], c[p] = p & 1 ? o[p] : E[(p + 2) % 8];
        gmem_write(mem, buf + 16 * p, &o[p], 8);
        w->s[r] = (uint32_t)d[p];
        w->s[r + 1] = x2 ? (uint32_t)(d[p] >> 32) : (uint32_t)c[p];
        w->s[r + 2] = (uint32_t)c[p], w->s[r + 3] = (uint32_t)(c[p] >> 32);
    }
    int st = cov_run_done(w, arch, text);
    if (st == COV_NOT_ON_TARGET)
        return;
    for (int p = 0; p < 8 && st == WAVE_DONE; p++) {
        int r = 20 + 4 * p;
        uint64_t got = mem_rd(0, 16 * (unsigned)p, x2), want = ref(k, x2, o[p], d[p], c[p], 0);
        uint64_t ret = w->s[r] | (x2 ? (uint64_t)w->s[r + 1] << 32 : 0);
        CHECK(got == want && ret == (x2 ? o[p] : (uint32_t)o[p]),
              "%s s_%satomic_%s%s old %llx data %llx cmp %llx: mem %llx want %llx ret %llx", arch,
              buffer ? "buffer_" : "", gname[k], x2 ? "_x2" : "", (unsigned long long)o[p],
              (unsigned long long)d[p], (unsigned long long)c[p], (unsigned long long)got,
              (unsigned long long)want, (unsigned long long)ret);
    }
}

/* Float atomics: exact sums, so the host's float arithmetic is the reference. */
static uint32_t h16(double v) /* exact binary16 bits of a value representable in it */
{
    if (v == 0)
        return signbit(v) ? 0x8000 : 0;
    int e;
    double m = frexp(fabs(v), &e); /* v = m * 2^e, m in [0.5, 1) */
    return (v < 0 ? 0x8000u : 0) | (uint32_t)(e + 14) << 10 | (uint32_t)((m * 2 - 1) * 1024);
}
static void test_float(const char *arch) {
    static const double fv[8] = {1.5, 2.25, -3.0, 0.0, 1e30, -0.125, 65536.0, -0.0};
    static const double hv[8] = {1.0, 2.0, -0.5, 0.25, 3.0, -4.0, 0.0, 8.0};
    static const char *const ops[] = {
        "global_atomic_add_f32 v10, v[2:3], v4, off sc0",
        "flat_atomic_add_f32 v10, v[2:3], v4 sc0",
        "buffer_atomic_add_f32 v4, v2, s[12:15], 0 offen sc0",
        "ds_add_rtn_f32 v10, v2, v4",
        "ds_min_rtn_f32 v10, v2, v4",
        "ds_max_rtn_f32 v10, v2, v4",
        "ds_min_f32 v2, v4",
        "ds_max_f32 v2, v4",
        "ds_cmpst_rtn_f32 v10, v2, v4, v5",
        "ds_cmpst_f32 v2, v4, v5",
        "global_atomic_add_f64 v[10:11], v[2:3], v[4:5], off sc0",
        "flat_atomic_add_f64 v[10:11], v[2:3], v[4:5] sc0",
        "buffer_atomic_add_f64 v[4:5], v2, s[12:15], 0 offen sc0",
        "flat_atomic_min_f64 v[10:11], v[2:3], v[4:5] sc0",
        "flat_atomic_max_f64 v[10:11], v[2:3], v[4:5] sc0",
        "buffer_atomic_min_f64 v[4:5], v2, s[12:15], 0 offen sc0",
        "buffer_atomic_max_f64 v[4:5], v2, s[12:15], 0 offen sc0",
        "ds_add_f64 v2, v[4:5]",
        "ds_add_rtn_f64 v[10:11], v2, v[4:5]",
        "ds_min_rtn_f64 v[10:11], v2, v[4:5]",
        "ds_max_rtn_f64 v[10:11], v2, v[4:5]",
        "ds_min_f64 v2, v[4:5]",
        "ds_max_f64 v2, v[4:5]",
        "ds_cmpst_rtn_f64 v[10:11], v2, v[4:5], v[6:7]",
        "ds_cmpst_f64 v2, v[4:5], v[6:7]",
        "global_atomic_pk_add_f16 v10, v[2:3], v4, off sc0",
        "flat_atomic_pk_add_f16 v10, v[2:3], v4 sc0",
        "buffer_atomic_pk_add_f16 v4, v2, s[12:15], 0 offen sc0",
        "ds_pk_add_f16 v2, v4",
        "ds_pk_add_rtn_f16 v10, v2, v4",
        "global_atomic_pk_add_bf16 v10, v[2:3], v4, off sc0",
        "flat_atomic_pk_add_bf16 v10, v[2:3], v4 sc0",
        "buffer_atomic_pk_add_bf16 v4, v2, s[12:15], 0 offen sc0",
        "ds_pk_add_bf16 v2, v4",
        "ds_pk_add_rtn_bf16 v10, v2, v4",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const char *t = ops[i];
        int ds = !strncmp(t, "ds_", 3), buffer = !strncmp(t, "buffer", 6);
        int f64 = strstr(t, "f64") != NULL, pk = strstr(t, "pk_add") != NULL;
        int bf = strstr(t, "bf16") != NULL, cmpst = strstr(t, "cmpst") != NULL;
        int kind = strstr(t, "min") ? 1 : strstr(t, "max") ? 2 : cmpst ? 3 : 0;
        int rtn = strstr(t, "sc0") || strstr(t, "rtn");
        if (bf && buffer && strcmp(arch, "gfx950"))
            continue; /* buffer_atomic_pk_add_bf16 is a gfx950 addition */
        int fam = ds ? 3 : buffer ? 2 : 1;
        reset();
        snippet_set_rsrc(w, 12, buf, 0, 512, 0);
        uint64_t o[64], d[64], c[64];
        for (int l = 0; l < 64; l++) {
            double a = fv[l % 8], b = fv[l / 8];
            if (pk) {
                double a0 = hv[l % 8], a1 = hv[(l + 3) % 8], b0 = hv[l / 8],
                       b1 = hv[(l / 8 + 5) % 8];
                if (bf) {
                    o[l] = bits32((float)a0) >> 16 | (bits32((float)a1) >> 16) << 16;
                    d[l] = bits32((float)b0) >> 16 | (bits32((float)b1) >> 16) << 16;
                    c[l] = bits32((float)(a0 + b0)) >> 16 | (bits32((float)(a1 + b1)) >> 16) << 16;
                } else {
                    o[l] = h16(a0) | h16(a1) << 16;
                    d[l] = h16(b0) | h16(b1) << 16;
                    c[l] = h16(a0 + b0) | h16(a1 + b1) << 16;
                }
            } else if (f64) {
                o[l] = bits64(a), d[l] = bits64(b);
                c[l] = l % 3 == 0 ? o[l] : bits64(fv[(l + 3) % 8]);
            } else {
                o[l] = bits32((float)a), d[l] = bits32((float)b);
                c[l] = l % 3 == 0 ? o[l] : bits32((float)fv[(l + 3) % 8]);
            }
            mem_wr(fam, 8 * l, o[l], f64);
            uint64_t addr = fam == 1 ? buf + 8 * l : 8u * l;
            w->v[2][l] = (uint32_t)addr, w->v[3][l] = (uint32_t)(addr >> 32);
            /* ds cmpst: data = cmp, data2 = src */
            vset(4, l, cmpst ? c[l] : d[l], f64);
            vset(f64 ? 6 : 5, l, d[l], f64);
            vset(10, l, 0x5555555555555555ull, f64);
        }
        int st = cov_run_done(w, arch, t);
        if (st == COV_NOT_ON_TARGET)
            continue;
        int bad = 0;
        for (int l = 0; l < 64 && st == WAVE_DONE; l++) {
            uint64_t want;
            if (l == 13)
                want = o[l];
            else if (pk)
                want = c[l];
            else if (f64) {
                double a = from_bits64(o[l]), b = from_bits64(d[l]);
                want = kind == 3 ? (a == from_bits64(c[l]) ? d[l] : o[l])
                                 : bits64(kind == 1   ? fmin(a, b)
                                          : kind == 2 ? fmax(a, b)
                                                      : a + b);
                if (kind && a == 0 && b == 0) /* min/max of ±0: either zero is accepted */
                    want = from_bits64(mem_rd(fam, 8 * l, 1)) == 0 ? mem_rd(fam, 8 * l, 1) : want;
            } else {
                float a = from_bits32((uint32_t)o[l]), b = from_bits32((uint32_t)d[l]);
                want = kind == 3 ? (a == from_bits32((uint32_t)c[l]) ? d[l] : o[l])
                                 : bits32(kind == 1   ? fminf(a, b)
                                          : kind == 2 ? fmaxf(a, b)
                                                      : a + b);
                if (kind && kind != 3 && a == 0 && b == 0)
                    want = from_bits32((uint32_t)mem_rd(fam, 8 * l, 0)) == 0 ? mem_rd(fam, 8 * l, 0)
                                                                             : want;
            }
            uint64_t got = mem_rd(fam, 8 * l, f64);
            int rr = buffer ? 4 : 10;
            uint64_t rwant = !rtn ? vget(rr, l, f64)
                             : l == 13
                                 ? (buffer ? d[l] : (f64 ? 0x5555555555555555ull : 0x55555555))
                                 : o[l];
            if ((got != want || vget(rr, l, f64) != rwant) && bad++ < 3)
                printf("  %s [%s] lane %d: old %llx data %llx: mem %llx want %llx ret %llx want "
                       "%llx\n",
                       arch, t, l, (unsigned long long)o[l], (unsigned long long)d[l],
                       (unsigned long long)got, (unsigned long long)want,
                       (unsigned long long)vget(rr, l, f64), (unsigned long long)rwant);
        }
        CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, t, bad);
    }
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 512, 0);
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        for (int k = 0; k < NK; k++)
            for (int x2 = 0; x2 < 2; x2++) {
                for (int fam = 0; fam < 5; fam++)
                    test_vector(arches[a], fam, k, x2);
                test_scalar(arches[a], 0, k, x2);
                test_scalar(arches[a], 1, k, x2);
            }
        test_float(arches[a]);
    }
    free(w);
    gmem_destroy(mem);
    cov_report_na("cov_atomics");
    return check_summary("cov_atomics");
}
