/* test_rdna_cov_mem.c - RDNA memory ops the opcode coverage audit found executed by no test
 * (docs/testing.md), on llvm-mc-22 encodings for gfx1100 and gfx1201 in wave32 with a partial
 * EXEC: the DS, FLAT, GLOBAL and buffer (MUBUF/VBUFFER, raw V#, offen) atomics (with and
 * without return), and the sub-dword, d16 and 96-bit loads and stores of DS, FLAT, GLOBAL,
 * buffer and SCRATCH (test_ldst).
 *
 * Every lane works on its own 8 bytes (lane l at byte 8 * l), with per-lane memory values and
 * operands that reach the edges (wrap-around, signed against unsigned order, inc/dec limits,
 * compare hit and miss).  Expected memory and returned values come from the RDNA3/RDNA4 ISA
 * pseudocode evaluated on the host (atomic_ref below); an inactive lane leaves its memory and
 * its destination VGPR alone. */
#include "common/check.h"
#include "common/cov.h"

static wave *w;
static gmem *mem;
static uint64_t buf; /* 4 KiB of global memory */
static uint8_t lds[2048];
static uint8_t scratch[64 * 64];

enum { NL = 32, OFF_LANE = 5 };
static const uint32_t EXEC0 = ~(1u << OFF_LANE);

/* Atomic kinds (RDNA3 ISA DS_* / FLAT_ATOMIC_* pseudocode; old = memory before). */
enum {
    A_ADD,
    A_SUB,
    A_RSUB,
    A_INC,
    A_DEC,
    A_MIN_I,
    A_MAX_I,
    A_MIN_U,
    A_MAX_U,
    A_AND,
    A_OR,
    A_XOR,
    A_SWAP,
    A_CMP,
    A_MSKOR,
    A_CMP_F,
    A_ADD_F,
    A_MIN_F,
    A_MAX_F
};
/* d = DATA, d2 = DATA2 (DS: cmpstore's compare value, mskor's OR value; FLAT cmpswap: DATA's
 * high half) */
static uint64_t atomic_ref(int k, int bits, uint64_t old, uint64_t d, uint64_t d2) {
    uint64_t m = bits == 64 ? ~0ull : 0xffffffffull, s = bits == 64 ? 63 : 31;
    int64_t so = (int64_t)(old << (63 - s)) >> (63 - s), sd = (int64_t)(d << (63 - s)) >> (63 - s);
    switch (k) {
    case A_ADD: return (old + d) & m;
    case A_SUB: return (old - d) & m;
    case A_RSUB: return (d - old) & m;
    case A_INC: return old >= d ? 0 : old + 1;
    case A_DEC: return old == 0 || old > d ? d : old - 1;
    case A_MIN_I: return so < sd ? old : d;
    case A_MAX_I: return so > sd ? old : d;
    case A_MIN_U: return old < d ? old : d;
    case A_MAX_U: return old > d ? old : d;
    case A_AND: return old & d;
    case A_OR: return old | d;
    case A_XOR: return old ^ d;
    case A_SWAP: return d;
    case A_CMP: return old == d2 ? d : old;
    case A_CMP_F: /* a float compare: NaN equals nothing (the integer values include NaNs) */
        return (bits == 64 ? from_bits64(old) == from_bits64(d2)
                           : from_bits32((uint32_t)old) == from_bits32((uint32_t)d2))
                   ? d
                   : old;
    case A_MSKOR: return (old & ~d) | d2;
    case A_ADD_F:
        return bits == 64 ? bits64(from_bits64(old) + from_bits64(d))
                          : bits32(from_bits32((uint32_t)old) + from_bits32((uint32_t)d));
    case A_MIN_F:
    case A_MAX_F: {
        double a = bits == 64 ? from_bits64(old) : from_bits32((uint32_t)old);
        double b = bits == 64 ? from_bits64(d) : from_bits32((uint32_t)d);
        return (k == A_MIN_F ? a < b : a > b) ? old : d;
    }
    }
    return 0;
}

/* Per-lane memory and operands: integers around the wrap and sign edges; floats normal values
 * (the NaN and signed-zero rules of the float min/max are the VALU tests' business). */
static uint64_t lane_old(int k, int bits, int l) {
    static const uint64_t v[8] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 5, 0x12345678, 7};
    static const uint64_t v64[8] = {0,     1, 0x7fffffffffffffff, 0x8000000000000000,
                                    ~0ull, 5, 0x123456789abcdef0, 0xffffffff};
    if (k >= A_ADD_F)
        return bits == 64 ? bits64(1.5 * (l - 10)) : bits32(1.5f * (float)(l - 10));
    return bits == 64 ? v64[l % 8] : v[l % 8];
}
static uint64_t lane_d(int k, int bits, int l) {
    static const uint64_t v[8] = {1, 0xffffffff, 1, 5, 0x80000000, 0, 0x12345678, 7};
    static const uint64_t v64[8] = {
        1, ~0ull, 1, 5, 0x8000000000000000, 0, 0x123456789abcdef0, 0x100000000};
    if (k >= A_ADD_F)
        return bits == 64 ? bits64(0.25 * (l % 7) - 1) : bits32(0.25f * (float)(l % 7) - 1);
    uint64_t x = bits == 64 ? v64[(l / 8 + l) % 8] : v[(l / 8 + l) % 8];
    return x;
}
/* the compare value: equal to the memory in even lanes (the swap happens), not in odd ones */
static uint64_t lane_d2(int k, int bits, int l) {
    if (k == A_CMP || k == A_CMP_F)
        return l % 2 ? lane_old(k, bits, l) ^ 1 : lane_old(k, bits, l);
    return bits == 64 ? 0x0f0f0f0f0f0f0f0full : 0x0f0f0f0f; /* mskor */
}

enum { SP_DS, SP_FLAT, SP_GLOBAL, SP_BUF };
enum { G11 = 1, G12 = 2, BOTH = 3 };
typedef struct {
    int sp, on, kind, bits;
    const char *name; /* without the return form's spelling */
    const char *rtn;  /* DS: the _rtn_ name; NULL: no such form */
} aop;

#define DS(k, b, n, r) {SP_DS, BOTH, k, b, "ds_" n, "ds_" r}
#define DS11(k, b, n, r) {SP_DS, G11, k, b, "ds_" n, "ds_" r} /* gfx12: _num_ forms */
#define DSRTN(k, b, r) {SP_DS, BOTH, k, b, NULL, "ds_" r}     /* a return form only */
#define FG(k, b, n)                                                                                \
    {SP_FLAT, BOTH, k, b, "flat_atomic_" n, ""}, {SP_GLOBAL, BOTH, k, b, "global_atomic_" n, ""},  \
        {SP_BUF, BOTH, k, b, "buffer_atomic_" n, ""}
static const aop aops[] = {
    DS(A_ADD, 32, "add_u32", "add_rtn_u32"),
    DS(A_SUB, 32, "sub_u32", "sub_rtn_u32"),
    DS(A_RSUB, 32, "rsub_u32", "rsub_rtn_u32"),
    DS(A_INC, 32, "inc_u32", "inc_rtn_u32"),
    DS(A_DEC, 32, "dec_u32", "dec_rtn_u32"),
    DS(A_MIN_I, 32, "min_i32", "min_rtn_i32"),
    DS(A_MAX_I, 32, "max_i32", "max_rtn_i32"),
    DS(A_MIN_U, 32, "min_u32", "min_rtn_u32"),
    DS(A_MAX_U, 32, "max_u32", "max_rtn_u32"),
    DS(A_AND, 32, "and_b32", "and_rtn_b32"),
    DS(A_OR, 32, "or_b32", "or_rtn_b32"),
    DS(A_XOR, 32, "xor_b32", "xor_rtn_b32"),
    DS(A_MSKOR, 32, "mskor_b32", "mskor_rtn_b32"),
    DS(A_CMP, 32, "cmpstore_b32", "cmpstore_rtn_b32"),
    DSRTN(A_SWAP, 32, "storexchg_rtn_b32"),
    DS(A_ADD_F, 32, "add_f32", "add_rtn_f32"),
    DS11(A_MIN_F, 32, "min_f32", "min_rtn_f32"),
    DS11(A_MAX_F, 32, "max_f32", "max_rtn_f32"),
    DS(A_ADD, 64, "add_u64", "add_rtn_u64"),
    DS(A_SUB, 64, "sub_u64", "sub_rtn_u64"),
    DS(A_RSUB, 64, "rsub_u64", "rsub_rtn_u64"),
    DS(A_INC, 64, "inc_u64", "inc_rtn_u64"),
    DS(A_DEC, 64, "dec_u64", "dec_rtn_u64"),
    DS(A_MIN_I, 64, "min_i64", "min_rtn_i64"),
    DS(A_MAX_I, 64, "max_i64", "max_rtn_i64"),
    DS(A_MIN_U, 64, "min_u64", "min_rtn_u64"),
    DS(A_MAX_U, 64, "max_u64", "max_rtn_u64"),
    DS(A_AND, 64, "and_b64", "and_rtn_b64"),
    DS(A_OR, 64, "or_b64", "or_rtn_b64"),
    DS(A_XOR, 64, "xor_b64", "xor_rtn_b64"),
    DS(A_MSKOR, 64, "mskor_b64", "mskor_rtn_b64"),
    DS(A_CMP, 64, "cmpstore_b64", "cmpstore_rtn_b64"),
    DSRTN(A_SWAP, 64, "storexchg_rtn_b64"),
    DS11(A_MIN_F, 64, "min_f64", "min_rtn_f64"),
    DS11(A_MAX_F, 64, "max_f64", "max_rtn_f64"),
    {SP_DS, G11, A_CMP_F, 32, "ds_cmpstore_f32", "ds_cmpstore_rtn_f32"},
    {SP_DS, G11, A_CMP_F, 64, "ds_cmpstore_f64", "ds_cmpstore_rtn_f64"},
    FG(A_ADD, 32, "add_u32"),
    FG(A_SUB, 32, "sub_u32"),
    FG(A_INC, 32, "inc_u32"),
    FG(A_DEC, 32, "dec_u32"),
    FG(A_MIN_I, 32, "min_i32"),
    FG(A_MAX_I, 32, "max_i32"),
    FG(A_MIN_U, 32, "min_u32"),
    FG(A_MAX_U, 32, "max_u32"),
    FG(A_AND, 32, "and_b32"),
    FG(A_OR, 32, "or_b32"),
    FG(A_XOR, 32, "xor_b32"),
    FG(A_SWAP, 32, "swap_b32"),
    FG(A_CMP, 32, "cmpswap_b32"),
    FG(A_ADD_F, 32, "add_f32"),
    FG(A_ADD, 64, "add_u64"),
    FG(A_SUB, 64, "sub_u64"),
    FG(A_INC, 64, "inc_u64"),
    FG(A_DEC, 64, "dec_u64"),
    FG(A_MIN_I, 64, "min_i64"),
    FG(A_MAX_I, 64, "max_i64"),
    FG(A_MIN_U, 64, "min_u64"),
    FG(A_MAX_U, 64, "max_u64"),
    FG(A_AND, 64, "and_b64"),
    FG(A_OR, 64, "or_b64"),
    FG(A_XOR, 64, "xor_b64"),
    FG(A_SWAP, 64, "swap_b64"),
    FG(A_CMP, 64, "cmpswap_b64"),
    {SP_FLAT, G11, A_MIN_F, 32, "flat_atomic_min_f32", ""},
    {SP_FLAT, G11, A_MAX_F, 32, "flat_atomic_max_f32", ""},
    {SP_GLOBAL, G11, A_MIN_F, 32, "global_atomic_min_f32", ""},
    {SP_GLOBAL, G11, A_MAX_F, 32, "global_atomic_max_f32", ""},
    {SP_FLAT, G12, A_MIN_F, 32, "flat_atomic_min_num_f32", ""},
    {SP_FLAT, G12, A_MAX_F, 32, "flat_atomic_max_num_f32", ""},
    {SP_GLOBAL, G12, A_MIN_F, 32, "global_atomic_min_num_f32", ""},
    {SP_GLOBAL, G12, A_MAX_F, 32, "global_atomic_max_num_f32", ""},
};

/* A raw buffer V# (RDNA3/RDNA4 ISA "Buffer resource"; OOB_SELECT 3, stride 0) over buf's 4 KiB
 * in s[8:11]. */
static void vsharp(void) {
    w->s[8] = (uint32_t)buf, w->s[9] = (uint32_t)(buf >> 32) & 0xffff;
    w->s[10] = 4096, w->s[11] = 3u << 28;
}

static uint8_t *gptr(uint64_t va, uint64_t n) { return gmem_xlate(mem, &w->cache, va, n); }

static void reset(void) {
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, 64);
    wave_set_exec(w, EXEC0);
    w->mode = 0xf0;
}

/* VGPRs: v0 the lane's byte offset, v[2:3] DATA (v[2:3] both halves of a 64-bit value, or for
 * FLAT cmpswap_b32 v2 = src and v3 = cmp), v[6:7] DATA2 (DS), v[8:9] the flat address, v[10:11]
 * the returned value (0x5555 before). */
static void test_atomic(const char *arch, int g12, const aop *o, int rtn) {
    reset();
    int b = o->bits, k = o->kind;
    uint8_t *base = o->sp == SP_DS ? lds : gptr(buf, 8 * NL);
    uint64_t want_mem[NL], want_ret[NL];
    for (int l = 0; l < 64; l++) {
        uint64_t old = lane_old(k, b, l), d = lane_d(k, b, l), d2 = lane_d2(k, b, l);
        w->v[0][l] = 8u * (unsigned)l;
        uint64_t a = buf + 8u * (unsigned)l;
        w->v[8][l] = (uint32_t)a, w->v[9][l] = (uint32_t)(a >> 32);
        w->v[10][l] = w->v[11][l] = 0x5555;
        if (o->sp != SP_DS && k == A_CMP && b == 32) {
            w->v[2][l] = (uint32_t)d, w->v[3][l] = (uint32_t)d2;
        } else if (o->sp != SP_DS && k == A_CMP) { /* cmpswap_b64: v[2:3] src, v[4:5] cmp */
            w->v[2][l] = (uint32_t)d, w->v[3][l] = (uint32_t)(d >> 32);
            w->v[4][l] = (uint32_t)d2, w->v[5][l] = (uint32_t)(d2 >> 32);
        } else {
            w->v[2][l] = (uint32_t)d, w->v[3][l] = (uint32_t)(d >> 32);
        }
        w->v[6][l] = (uint32_t)d2, w->v[7][l] = (uint32_t)(d2 >> 32);
        if (o->sp == SP_BUF) { /* MUBUF/VBUFFER: VDATA is the data and the returned value */
            w->v[10][l] = (uint32_t)d;
            w->v[11][l] = k == A_CMP && b == 32 ? (uint32_t)d2
                          : b == 64             ? (uint32_t)(d >> 32)
                                                : 0x5555;
            w->v[12][l] = (uint32_t)d2, w->v[13][l] = (uint32_t)(d2 >> 32);
        }
        if (l >= NL)
            continue;
        memcpy(base + 8 * l, &old, 8);
        int on = l != OFF_LANE;
        uint64_t nv = atomic_ref(k, b, old, d, d2);
        want_mem[l] = on ? (b == 64 ? nv : (old & ~0xffffffffull) | nv) : old;
        want_ret[l] =
            on ? (b == 64 ? old : (0x5555ull << 32) | (old & 0xffffffff)) : 0x0000555500005555ull;
        if (o->sp == SP_BUF) { /* not returned (or inactive): VDATA as it was */
            uint64_t keep = w->v[10][l] | (uint64_t)w->v[11][l] << 32;
            want_ret[l] =
                on && rtn ? (b == 64 ? old : (keep & ~0xffffffffull) | (old & 0xffffffff)) : keep;
        }
    }
    if (o->sp == SP_DS)
        memset(lds + 8 * NL, 0, sizeof lds - 8 * NL);
    w->s[4] = (uint32_t)buf, w->s[5] = (uint32_t)(buf >> 32);
    vsharp();
    const char *D = b == 64 ? "v[2:3]" : "v2", *R = b == 64 ? "v[10:11]" : "v10";
    const char *D2 = b == 64 ? "v[6:7]" : "v6";
    char text[256];
    int two = k == A_CMP || k == A_CMP_F || k == A_MSKOR;
    if (o->sp == SP_DS) {
        if (rtn)
            snprintf(text, sizeof text, "%s %s, v0, %s%s%s\ns_waitcnt 0", o->rtn, R, D,
                     two ? ", " : "", two ? D2 : "");
        else
            snprintf(text, sizeof text, "%s v0, %s%s%s\ns_waitcnt 0", o->name, D, two ? ", " : "",
                     two ? D2 : "");
    } else {
        const char *data = k == A_CMP ? (b == 64 ? "v[2:5]" : "v[2:3]") : D;
        const char *ret = rtn ? (g12 ? " th:TH_ATOMIC_RETURN" : " glc") : "";
        char dst[16] = "";
        if (rtn)
            snprintf(dst, sizeof dst, "%s, ", R);
        if (o->sp == SP_BUF)
            snprintf(text, sizeof text, "%s %s, v0, s[8:11], null offen%s\ns_waitcnt 0", o->name,
                     k == A_CMP ? (b == 64 ? "v[10:13]" : "v[10:11]") : R, ret);
        else if (o->sp == SP_FLAT)
            snprintf(text, sizeof text, "%s %sv[8:9], %s%s\ns_waitcnt 0", o->name, dst, data, ret);
        else
            snprintf(text, sizeof text, "%s %sv0, %s, s[4:5]%s\ns_waitcnt 0", o->name, dst, data,
                     ret);
    }
    int st = cov_run(w, arch, text);
    CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d op %s", arch, text, st, w->fault.kind,
          isa_op_names[w->fault.op]);
    if (st != WAVE_DONE)
        return;
    int bad = 0;
    for (int l = 0; l < NL; l++) {
        uint64_t got;
        memcpy(&got, base + 8 * l, 8);
        if (got != want_mem[l] && bad++ < 3)
            printf("  %s [%s] lane %d: memory %016llx, want %016llx\n", arch, text, l,
                   (unsigned long long)got, (unsigned long long)want_mem[l]);
        uint64_t r = w->v[10][l] | (uint64_t)w->v[11][l] << 32;
        uint64_t wr = rtn || o->sp == SP_BUF ? want_ret[l] : 0x0000555500005555ull;
        if (r != wr && bad++ < 3)
            printf("  %s [%s] lane %d: returned %016llx, want %016llx\n", arch, text, l,
                   (unsigned long long)r, (unsigned long long)wr);
    }
    CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, text, bad);
}

/* ---- sub-dword, d16 and 96-bit loads and stores (RDNA3/RDNA4 ISA DS_LOAD_*, FLAT_LOAD_*,
 * ...): a byte or short zero- or sign-extended to the dword, or (d16) to the low or high half,
 * the other half kept; stores write the low or (d16_hi) high byte/short. ---- */
enum {
    L_U8,
    L_I8,
    L_U16,
    L_I16,
    L_D16_U8,
    L_D16_I8,
    L_D16_B16,
    L_HI_U8,
    L_HI_I8,
    L_HI_B16,
    L_B96,
    S_B8,
    S_B16,
    S_HI_B8,
    S_HI_B16,
    S_B96,
    NLS
};
static const char *const ls_vmem[NLS] = {
    "load_u8",        "load_i8",         "load_u16",         "load_i16",
    "load_d16_u8",    "load_d16_i8",     "load_d16_b16",     "load_d16_hi_u8",
    "load_d16_hi_i8", "load_d16_hi_b16", "load_b96",         "store_b8",
    "store_b16",      "store_d16_hi_b8", "store_d16_hi_b16", "store_b96"};
static const char *const ls_ds[NLS] = {
    "load_u8",        "load_i8",         "load_u16",         "load_i16",
    "load_u8_d16",    "load_i8_d16",     "load_u16_d16",     "load_u8_d16_hi",
    "load_i8_d16_hi", "load_u16_d16_hi", "load_b96",         "store_b8",
    "store_b16",      "store_b8_d16_hi", "store_b16_d16_hi", "store_b96"};
enum { SP_SCRATCH = 4 };

static uint32_t load_ref(int k, const uint8_t *m, uint32_t pre) {
    uint32_t b = m[0], h = m[0] | (uint32_t)m[1] << 8;
    uint32_t sb = (uint32_t)(int32_t)(int8_t)b, sh = (uint32_t)(int32_t)(int16_t)h;
    switch (k) {
    case L_U8: return b;
    case L_I8: return sb;
    case L_U16: return h;
    case L_I16: return sh;
    case L_D16_U8: return (pre & 0xffff0000) | b;
    case L_D16_I8: return (pre & 0xffff0000) | (sb & 0xffff);
    case L_D16_B16: return (pre & 0xffff0000) | h;
    case L_HI_U8: return (pre & 0xffff) | b << 16;
    case L_HI_I8: return (pre & 0xffff) | sb << 16;
    default: return (pre & 0xffff) | h << 16; /* L_HI_B16 */
    }
}

/* Lane l's 16 bytes at 16 * l (scratch: at 0 of the lane's own private memory); lanes 0-15
 * active but lane 5.  v1 the loaded or stored dword (v[4:6] for 96 bits), v0 the address or
 * offset.  How the lanes' private bytes sit in scratch memory is the engine's business: the
 * scratch snippets put them there with scratch_store_b128 (from v[12:15]) and read them back
 * after the op with scratch_load_b128 (into v[16:19]). */
static void test_ldst(const char *arch, int sp, int k) {
    reset();
    wave_set_exec(w, 0xffff & ~(1u << OFF_LANE));
    uint8_t *m[16], sbytes[16][16], before[16][16];
    for (int l = 0; l < 64; l++) {
        w->v[0][l] = sp == SP_SCRATCH ? 0 : 16u * (unsigned)l;
        uint64_t a = buf + 16u * (unsigned)l;
        w->v[8][l] = (uint32_t)a, w->v[9][l] = (uint32_t)(a >> 32);
        w->v[1][l] = k >= S_B8 ? 0x8a7b6c5du ^ (uint32_t)l * 0x01010101u : 0xa5a5a5a5u;
        for (int i = 0; i < 3; i++)
            w->v[4 + i][l] = k >= S_B8 ? 0x10203040u * (uint32_t)(i + 1) + (uint32_t)l : 0x5a5a5a5a;
        if (l >= 16)
            continue;
        m[l] = sp == SP_DS        ? lds + 16 * l
               : sp == SP_SCRATCH ? sbytes[l]
                                  : gptr(buf + 16u * (unsigned)l, 16);
        for (int i = 0; i < 16; i++)
            m[l][i] = (uint8_t)(0x80 + 37 * l + 11 * i);
        memcpy(before[l], m[l], 16);
        for (int i = 0; i < 4; i++)
            memcpy(&w->v[12 + i][l], m[l] + 4 * i, 4);
    }
    w->s[4] = (uint32_t)buf, w->s[5] = (uint32_t)(buf >> 32);
    vsharp();
    const char *name = sp == SP_DS ? ls_ds[k] : ls_vmem[k];
    const char *reg = k == L_B96 || k == S_B96 ? "v[4:6]" : "v1";
    char op[64], text[256];
    int st_op = k >= S_B8;
    switch (sp) {
    case SP_DS: snprintf(op, sizeof op, st_op ? "ds_%s v0, %s" : "ds_%s %s, v0", name, reg); break;
    case SP_FLAT:
        snprintf(op, sizeof op, st_op ? "flat_%s v[8:9], %s" : "flat_%s %s, v[8:9]", name, reg);
        break;
    case SP_GLOBAL:
        snprintf(op, sizeof op, st_op ? "global_%s v0, %s, s[4:5]" : "global_%s %s, v0, s[4:5]",
                 name, reg);
        break;
    case SP_BUF: snprintf(op, sizeof op, "buffer_%s %s, v0, s[8:11], null offen", name, reg); break;
    default:
        snprintf(op, sizeof op, st_op ? "scratch_%s v0, %s, off" : "scratch_%s %s, v0, off", name,
                 reg);
        break;
    }
    if (sp == SP_SCRATCH)
        snprintf(text, sizeof text,
                 "scratch_store_b128 v0, v[12:15], off\n%s\nscratch_load_b128 v[16:19], v0, off\n"
                 "s_waitcnt 0",
                 op);
    else
        snprintf(text, sizeof text, "%s\ns_waitcnt 0", op);
    int st = cov_run(w, arch, text);
    CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d op %s", arch, op, st, w->fault.kind,
          isa_op_names[w->fault.op]);
    if (st != WAVE_DONE)
        return;
    int bad = 0;
    for (int l = 0; l < 16; l++) {
        int on = l != OFF_LANE;
        if (sp == SP_SCRATCH) {
            if (!on) /* nothing was stored for the inactive lane: its bytes are not compared */
                continue;
            for (int i = 0; i < 4; i++)
                memcpy(sbytes[l] + 4 * i, &w->v[16 + i][l], 4);
        }
        uint8_t want[16];
        memcpy(want, before[l], 16);
        if (on && st_op) {
            uint32_t v = w->v[1][l];
            switch (k) {
            case S_B8: want[0] = (uint8_t)v; break;
            case S_B16: want[0] = (uint8_t)v, want[1] = (uint8_t)(v >> 8); break;
            case S_HI_B8: want[0] = (uint8_t)(v >> 16); break;
            case S_HI_B16: want[0] = (uint8_t)(v >> 16), want[1] = (uint8_t)(v >> 24); break;
            default:
                for (int i = 0; i < 3; i++)
                    memcpy(want + 4 * i, &w->v[4 + i][l], 4);
            }
        }
        if (memcmp(m[l], want, 16) && bad++ < 3)
            printf("  %s [%s] lane %d: memory differs (byte 0 %02x, want %02x)\n", arch, op, l,
                   m[l][0], want[0]);
        if (st_op)
            continue;
        if (k == L_B96) {
            for (int i = 0; i < 3; i++) {
                uint32_t x;
                memcpy(&x, before[l] + 4 * i, 4);
                uint32_t wv = on ? x : 0x5a5a5a5a;
                if (w->v[4 + i][l] != wv && bad++ < 3)
                    printf("  %s [%s] lane %d: v%d %08x, want %08x\n", arch, op, l, 4 + i,
                           w->v[4 + i][l], wv);
            }
        } else {
            uint32_t wv = on ? load_ref(k, before[l], 0xa5a5a5a5u) : 0xa5a5a5a5u;
            if (w->v[1][l] != wv && bad++ < 3)
                printf("  %s [%s] lane %d: v1 %08x, want %08x\n", arch, op, l, w->v[1][l], wv);
        }
    }
    CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, op, bad);
}

/* ---- DS two-address, 128-bit and exchange forms (RDNA3 ISA DS_STORE_2ADDR_*, DS_LOAD_2ADDR_*,
 * DS_STOREXCHG_2ADDR_*: address + OFFSET0/OFFSET1 x the element size, x 64 for stride64),
 * on lane 0 with base address 16 ---- */
typedef struct {
    int on;
    const char *text;
    struct {
        unsigned reg, off, n; /* n dwords: VGPR reg.. read from (old) memory at off */
    } rd[2];
    struct {
        unsigned off, reg, n; /* n dwords at off written from VGPR reg.. */
    } wr[2];
} dscase;
static const dscase dscases[] = {
    {BOTH, "ds_store_2addr_b32 v0, v1, v2 offset0:1 offset1:3", {{0}}, {{20, 1, 1}, {28, 2, 1}}},
    {BOTH,
     "ds_store_2addr_b64 v0, v[8:9], v[10:11] offset0:1 offset1:2",
     {{0}},
     {{24, 8, 2}, {32, 10, 2}}},
    {BOTH,
     "ds_store_2addr_stride64_b64 v0, v[8:9], v[10:11] offset1:1",
     {{0}},
     {{16, 8, 2}, {528, 10, 2}}},
    {BOTH, "ds_load_2addr_b64 v[4:7], v0 offset0:1 offset1:2", {{4, 24, 2}, {6, 32, 2}}, {{0}}},
    {BOTH, "ds_load_2addr_stride64_b64 v[4:7], v0 offset1:1", {{4, 16, 2}, {6, 528, 2}}, {{0}}},
    {BOTH, "ds_store_b128 v0, v[8:11]", {{0}}, {{16, 8, 4}}},
    {BOTH, "ds_load_b128 v[4:7], v0", {{4, 16, 4}}, {{0}}},
    {BOTH,
     "ds_storexchg_2addr_rtn_b64 v[4:7], v0, v[8:9], v[10:11] offset1:1",
     {{4, 16, 2}, {6, 24, 2}},
     {{16, 8, 2}, {24, 10, 2}}},
    {BOTH,
     "ds_storexchg_2addr_stride64_rtn_b32 v[4:5], v0, v1, v2 offset1:1",
     {{4, 16, 1}, {5, 272, 1}},
     {{16, 1, 1}, {272, 2, 1}}},
    {BOTH,
     "ds_storexchg_2addr_stride64_rtn_b64 v[4:7], v0, v[8:9], v[10:11] offset1:1",
     {{4, 16, 2}, {6, 16 + 512, 2}},
     {{16, 8, 2}, {528, 10, 2}}},
};

static void test_ds_misc(const char *arch) {
    for (size_t c = 0; c < sizeof dscases / sizeof dscases[0]; c++) {
        const dscase *d = &dscases[c];
        reset();
        wave_set_exec(w, 1);
        uint8_t old[sizeof lds], want[sizeof lds];
        for (size_t i = 0; i < sizeof lds; i++)
            lds[i] = (uint8_t)(i * 7 + 3);
        memcpy(old, lds, sizeof lds);
        memcpy(want, lds, sizeof lds);
        w->v[0][0] = 16;
        for (unsigned r = 1; r < 12; r++)
            w->v[r][0] = 0x01010101u * r ^ 0xa0000000u;
        uint32_t regs[16];
        for (unsigned r = 0; r < 16; r++)
            regs[r] = w->v[r][0];
        for (int i = 0; i < 2; i++)
            if (d->wr[i].n)
                memcpy(want + d->wr[i].off, &regs[d->wr[i].reg], 4 * d->wr[i].n);
        int st = cov_run(w, arch, d->text);
        CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d", arch, d->text, st, w->fault.kind);
        if (st != WAVE_DONE)
            continue;
        CHECK(!memcmp(lds, want, sizeof lds), "%s [%s]: LDS differs", arch, d->text);
        for (int i = 0; i < 2; i++)
            for (unsigned k = 0; k < d->rd[i].n; k++) {
                uint32_t x;
                memcpy(&x, old + d->rd[i].off + 4 * k, 4);
                CHECK(w->v[d->rd[i].reg + k][0] == x, "%s [%s]: v%u = %08x, want %08x", arch,
                      d->text, d->rd[i].reg + k, w->v[d->rd[i].reg + k][0], x);
            }
    }
    /* DS_PERMUTE_B32 (forward: lane i's data goes to lane addr_i / 4, mod 32 in wave32) and
     * DS_SWIZZLE_B32 swap mode (lane l reads lane l ^ 1); all 32 lanes on */
    reset();
    wave_set_exec(w, 0xffffffffull);
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = 4 * ((l + 1) % 32), w->v[2][l] = 100 + l, w->v[5][l] = 200 + l;
    int st = cov_run(w, arch,
                     "ds_permute_b32 v1, v0, v2\nds_swizzle_b32 v3, v5 offset:swizzle(SWAP,1)\n"
                     "s_waitcnt 0");
    CHECK(st == WAVE_DONE, "%s ds_permute/swizzle: status %d", arch, st);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[1][l] != 100 + (l + 31) % 32 || w->v[3][l] != 200 + (l ^ 1);
    CHECK(bad == 0, "%s ds_permute/swizzle: %d lanes wrong (lane 0: %u %u)", arch, bad, w->v[1][0],
          w->v[3][0]);
}

/* buffer_store_b64, and the cache write-back / invalidate hints (no-ops: memory is coherent) */
static void test_buf_misc(const char *arch, int g12) {
    reset();
    wave_set_exec(w, 1);
    vsharp();
    w->v[0][0] = 8, w->v[2][0] = 0x11223344, w->v[3][0] = 0x55667788;
    char text[160];
    snprintf(text, sizeof text,
             "buffer_store_b64 v[2:3], v0, s[8:11], null offen\n%s\n"
             "s_waitcnt 0\ns_mov_b32 s2, 7",
             g12 ? "global_wb" : "buffer_gl1_inv");
    int st = cov_run(w, arch, text);
    uint32_t got[2];
    memcpy(got, gptr(buf + 8, 8), 8);
    CHECK(st == WAVE_DONE && got[0] == 0x11223344 && got[1] == 0x55667788 && w->s[2] == 7,
          "%s buffer_store_b64: status %d %08x %08x", arch, st, got[0], got[1]);
}

/* ---- buffer format ops (RDNA3/RDNA4 ISA "Buffer format" ops): the format in the V# word3
 * [18:12] (buffer_*_format_*, DST_SEL x, y, z, w) or in the instruction (tbuffer_*); unsigned
 * integer formats, whose components are the bytes/shorts/dwords themselves.  Unified format
 * numbers as llvm-mc-22 encodes BUF_FMT_*: 8_8_8_8_UINT 46, 16_UINT 11, 16_16_UINT 27,
 * 16_16_16_16_UINT 55, 32_UINT 20, 32_32_UINT 48, 32_32_32_UINT 58, 32_32_32_32_UINT 61.
 * d16 forms move 16-bit components: two per VGPR, low half first; d16_hi the high half. ---- */
typedef struct {
    const char *text;
    unsigned fmt;              /* the V# format (buffer_*), 0 for tbuffer_* */
    uint32_t want[4], mask[4]; /* loads: v4..v7 (mask 0: not compared); stores: memory dwords */
    int store;
} fcase;
#define ID_SEL (4u | 5u << 3 | 6u << 6 | 7u << 9)
static const fcase fcases[] = {
    /* memory bytes 81 22 33 44 55 66 77 88 ...; v4..v7 = a5a5a5a5 before a load */
    {"buffer_load_format_x v4, v0, s[8:11], null offen", 46, {0x81}, {~0u}, 0},
    {"buffer_load_format_xy v[4:5], v0, s[8:11], null offen", 46, {0x81, 0x22}, {~0u, ~0u}, 0},
    {"buffer_load_format_xyzw v[4:7], v0, s[8:11], null offen",
     46,
     {0x81, 0x22, 0x33, 0x44},
     {~0u, ~0u, ~0u, ~0u},
     0},
    {"buffer_load_d16_format_x v4, v0, s[8:11], null offen", 46, {0xa5a50081}, {~0u}, 0},
    {"buffer_load_d16_hi_format_x v4, v0, s[8:11], null offen", 46, {0x0081a5a5}, {~0u}, 0},
    {"buffer_load_d16_format_xy v4, v0, s[8:11], null offen", 46, {0x00220081}, {~0u}, 0},
    {"buffer_load_d16_format_xyz v[4:5], v0, s[8:11], null offen",
     46,
     {0x00220081, 0x0033},
     {~0u, 0xffff},
     0},
    {"buffer_load_d16_format_xyzw v[4:5], v0, s[8:11], null offen",
     46,
     {0x00220081, 0x00440033},
     {~0u, ~0u},
     0},
    {"tbuffer_load_format_x v4, v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x81},
     {~0u},
     0},
    {"tbuffer_load_format_xyz v[4:6], v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x81, 0x22, 0x33},
     {~0u, ~0u, ~0u},
     0},
    {"tbuffer_load_format_xyzw v[4:7], v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x81, 0x22, 0x33, 0x44},
     {~0u, ~0u, ~0u, ~0u},
     0},
    {"tbuffer_load_d16_format_x v4, v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0xa5a50081},
     {~0u},
     0},
    {"tbuffer_load_d16_format_xy v4, v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x00220081},
     {~0u},
     0},
    {"tbuffer_load_d16_format_xyz v[4:5], v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x00220081, 0x0033},
     {~0u, 0xffff},
     0},
    {"tbuffer_load_d16_format_xyzw v[4:5], v0, s[8:11], null format:[BUF_FMT_8_8_8_8_UINT] offen",
     0,
     {0x00220081, 0x00440033},
     {~0u, ~0u},
     0},
    /* stores: v4..v7 = 0x11111111 * (1..4); memory dwords 0-3 before: 0x44332281, 0x88776655,
     * ... (want[] lists the dwords after; mask 0: unchanged, not compared) */
    {"buffer_store_format_x v4, v0, s[8:11], null offen",
     20,
     {0x11111111, 0x88776655},
     {~0u, ~0u},
     1},
    {"buffer_store_format_xy v[4:5], v0, s[8:11], null offen",
     48,
     {0x11111111, 0x22222222},
     {~0u, ~0u},
     1},
    {"buffer_store_format_xyz v[4:6], v0, s[8:11], null offen",
     58,
     {0x11111111, 0x22222222, 0x33333333},
     {~0u, ~0u, ~0u},
     1},
    {"buffer_store_format_xyzw v[4:7], v0, s[8:11], null offen",
     61,
     {0x11111111, 0x22222222, 0x33333333, 0x44444444},
     {~0u, ~0u, ~0u, ~0u},
     1},
    {"buffer_store_d16_format_x v4, v0, s[8:11], null offen", 11, {0x44331111}, {~0u}, 1},
    /* (d16_hi: v4 = 0x5678abcd, its high half is stored) */
    {"buffer_store_d16_hi_format_x v4, v0, s[8:11], null offen", 11, {0x44335678}, {~0u}, 1},
    {"buffer_store_d16_format_xy v4, v0, s[8:11], null offen", 27, {0x11111111}, {~0u}, 1},
    {"buffer_store_d16_format_xyzw v[4:5], v0, s[8:11], null offen",
     55,
     {0x11111111, 0x22222222},
     {~0u, ~0u},
     1},
    /* three components of a four-component format: what lands in w is not asserted */
    {"buffer_store_d16_format_xyz v[4:5], v0, s[8:11], null offen",
     55,
     {0x11111111, 0x2222},
     {~0u, 0xffff},
     1},
    {"tbuffer_store_d16_format_xyz v[4:5], v0, s[8:11], null format:[BUF_FMT_16_16_16_16_UINT] "
     "offen",
     0,
     {0x11111111, 0x2222},
     {~0u, 0xffff},
     1},
    {"tbuffer_store_format_x v4, v0, s[8:11], null format:[BUF_FMT_32_UINT] offen",
     0,
     {0x11111111, 0x88776655},
     {~0u, ~0u},
     1},
    {"tbuffer_store_format_xyz v[4:6], v0, s[8:11], null format:[BUF_FMT_32_32_32_UINT] offen",
     0,
     {0x11111111, 0x22222222, 0x33333333},
     {~0u, ~0u, ~0u},
     1},
    {"tbuffer_store_format_xyzw v[4:7], v0, s[8:11], null format:[BUF_FMT_32_32_32_32_UINT] offen",
     0,
     {0x11111111, 0x22222222, 0x33333333, 0x44444444},
     {~0u, ~0u, ~0u, ~0u},
     1},
    {"tbuffer_store_d16_format_x v4, v0, s[8:11], null format:[BUF_FMT_16_UINT] offen",
     0,
     {0x44331111},
     {~0u},
     1},
    {"tbuffer_store_d16_format_xy v4, v0, s[8:11], null format:[BUF_FMT_16_16_UINT] offen",
     0,
     {0x11111111},
     {~0u},
     1},
    {"tbuffer_store_d16_format_xyzw v[4:5], v0, s[8:11], null format:[BUF_FMT_16_16_16_16_UINT] "
     "offen",
     0,
     {0x11111111, 0x22222222},
     {~0u, ~0u},
     1},
};

static void test_format(const char *arch) {
    for (size_t c = 0; c < sizeof fcases / sizeof fcases[0]; c++) {
        const fcase *f = &fcases[c];
        reset();
        wave_set_exec(w, 1);
        vsharp();
        w->s[11] |= ID_SEL | f->fmt << 12;
        uint8_t *m = gptr(buf, 16);
        for (int i = 0; i < 16; i++)
            m[i] = (uint8_t)(i == 0 ? 0x81 : 0x11 * (i + 1));
        w->v[0][0] = 0;
        for (int r = 0; r < 4; r++)
            w->v[4 + r][0] = f->store ? 0x11111111u * (uint32_t)(r + 1) : 0xa5a5a5a5u;
        if (f->store && strstr(f->text, "d16_hi"))
            w->v[4][0] = 0x5678abcd;
        int st = cov_run(w, arch, f->text);
        CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d", arch, f->text, st, w->fault.kind);
        if (st != WAVE_DONE)
            continue;
        for (int i = 0; i < 4; i++) {
            if (!f->mask[i])
                continue;
            uint32_t got;
            if (f->store)
                memcpy(&got, m + 4 * i, 4);
            else
                got = w->v[4 + i][0];
            CHECK((got & f->mask[i]) == f->want[i], "%s [%s]: %s %d = %08x, want %08x", arch,
                  f->text, f->store ? "dword" : "v4 +", i, got & f->mask[i], f->want[i]);
        }
    }
}

/* gfx12 packed 16-bit float atomics (RDNA4 ISA DS_PK_ADD_F16/BF16, BUFFER_ATOMIC_PK_ADD_*): each
 * half added alone; memory {hi 2.0, lo 1.0} + data {0.25, 0.5} = {2.25, 1.5}: f16 0x40003c00 +
 * 0x34003800 = 0x40803e00, bf16 0x40003f80 + 0x3e803f00 = 0x40103fc0 */
static void test_pk_add(const char *arch) {
    static const struct {
        const char *text;
        int bf16, rtn;
    } c[] = {
        {"ds_pk_add_f16 v0, v1", 0, 0},
        {"ds_pk_add_bf16 v0, v1", 1, 0},
        {"ds_pk_add_rtn_bf16 v3, v0, v1", 1, 1},
        {"buffer_atomic_pk_add_f16 v1, v0, s[8:11], null offen", 0, 0},
        {"buffer_atomic_pk_add_bf16 v1, v0, s[8:11], null offen", 1, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        reset();
        wave_set_exec(w, 1);
        vsharp();
        uint32_t old = c[i].bf16 ? 0x40003f80 : 0x40003c00;
        uint32_t want = c[i].bf16 ? 0x40103fc0 : 0x40803e00;
        int ds = c[i].text[0] == 'd';
        uint8_t *m = ds ? lds + 16 : gptr(buf + 16, 4);
        memcpy(m, &old, 4);
        w->v[0][0] = 16, w->v[1][0] = c[i].bf16 ? 0x3e803f00 : 0x34003800, w->v[3][0] = 0x5555;
        char text[128];
        snprintf(text, sizeof text, "%s\ns_waitcnt 0", c[i].text);
        int st = cov_run(w, arch, text);
        uint32_t got;
        memcpy(&got, m, 4);
        CHECK(st == WAVE_DONE && got == want && w->v[3][0] == (c[i].rtn ? old : 0x5555u),
              "%s [%s]: status %d memory %08x (want %08x) v3 %08x", arch, c[i].text, st, got, want,
              w->v[3][0]);
    }
}

int main(void) {
    w = calloc(1, sizeof *w);
    mem = gmem_create();
    buf = gmem_alloc(mem, 4096, 0);
    const char *const t[2] = {"gfx1100", "gfx1201"};
    for (int g = 0; g < 2; g++)
        for (size_t i = 0; i < sizeof aops / sizeof aops[0]; i++) {
            if (!(aops[i].on & (g ? G12 : G11)))
                continue;
            if (aops[i].name)
                test_atomic(t[g], g, &aops[i], 0);
            if (aops[i].rtn)
                test_atomic(t[g], g, &aops[i], 1);
        }
    for (int g = 0; g < 2; g++)
        for (int sp = 0; sp <= SP_SCRATCH; sp++)
            for (int k = 0; k < NLS; k++)
                test_ldst(t[g], sp, k);
    for (int g = 0; g < 2; g++) {
        test_ds_misc(t[g]);
        test_buf_misc(t[g], g);
        test_format(t[g]);
    }
    test_pk_add("gfx1201");
    gmem_destroy(mem);
    free(w);
    return check_summary("test_rdna_cov_mem");
}
