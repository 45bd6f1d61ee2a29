/* rdna_mem.c - RDNA buffer memory (gfx1100 MUBUF/MTBUF, gfx1201 VBUFFER) and the RDNA-only
 * cross-lane ops, with their allowlist rows (the format of src/exec/rdna.c, which reads these
 * tables too).
 *
 * Buffer instructions address memory through a 128-bit buffer resource (V#) in four SGPRs.  The
 * RDNA layout differs from GFX9's (src/exec/vmem.c buf_ref), per the RDNA3/RDNA4 ISA manuals'
 * "Buffer Resource" table:
 *   word0-1: BASE_ADDRESS [47:0], STRIDE [61:48] (14 bits), SWIZZLE_ENABLE [63:62] (2 bits:
 *            0 off, 1/2/3 = 4/8/16-byte swizzle elements; GFX9 had CACHE_SWIZZLE and a 1-bit
 *            enable there);
 *   word2:   NUM_RECORDS (bytes for raw buffers, records for structured ones);
 *   word3:   DST_SEL_X/Y/Z/W [11:0], FORMAT [17:12] (the unified buffer format: one code for
 *            data and number format, the same table the tbuffer format field uses),
 *            INDEX_STRIDE [22:21] (8, 16, 32, 64), ADD_TID_ENABLE [23], OOB_SELECT [29:28],
 *            TYPE [31:30] (0: buffer).
 * Address ("Buffer Addressing"): index = idxen VGPR (+ lane id with ADD_TID_ENABLE), offset =
 * offen VGPR + the instruction offset (32-bit); buffer_offset = offset + stride * index, or with
 * swizzling (element size E, index stride N):
 *   (index / N * stride + offset / E * E) * N + index % N * E + offset % E;
 * address = base + SOFFSET + buffer_offset.
 * Range check (OOB_SELECT; out of range when):
 *   0: index >= NUM_RECORDS or offset + payload > STRIDE       (structured, both checks)
 *   1: index >= NUM_RECORDS                                    (structured, index only)
 *   2: NUM_RECORDS == 0                                        (raw, no bounds)
 *   3: swizzled with a stride: as 0; else buffer_offset + payload > NUM_RECORDS   (raw)
 * (the GFX11+ rules as Mesa's ac_build_buffer_descriptor() states them).  SOFFSET is not part of
 * the checked offset: LLVM's AMDGPUUsage ("Relaxed buffer OOB mode") describes the check on the
 * voffset, and gfx9's range check in vmem.c leaves it out the same way.  Dword loads and stores of
 * 2-4 dwords are checked per dword, format loads/stores and atomics all or nothing (RDNA3 ISA
 * "Range checking").  Out of range loads read 0 and stores and atomics do nothing (an atomic
 * that returns gives 0): the hardware does that, it is not a fault.  An in-range access still
 * goes through the bounds-checked address space, so a huge NUM_RECORDS can never reach host
 * memory outside the allocations: it faults as a global access would.
 *
 * Not modelled, refused by name: tfe (texture-fail status), a reserved V# DST_SEL.  The data
 * conversions of the format ops are vmem.c's (x_vmem_format, and x_vmem_format_packed for the
 * packed formats 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10). */
#include "exec/rdna.h"
#include "exec/valu.h"
#include "exec/vmem.h"
#include "exec/xatomic.h"

#include <string.h>

/* ---- the RDNA buffer resource -------------------------------------------------------------- */

enum { OOB_STRUCT = 0, OOB_INDEX = 1, OOB_NONE = 2, OOB_RAW = 3 };

static lane_ref rbuf_ref(const wave *w, const xinst *x, unsigned l) {
    const isa_mem_fields *m = &x->in.f.m;
    const u32 *rs = &w->s[x->in.src[3].idx];
    u64 base = rs[0] | (u64)(rs[1] & 0xffff) << 32;
    u32 stride = (rs[1] >> 16) & 0x3fff, swz = rs[1] >> 30, num = rs[2], w3 = rs[3];
    unsigned oob = (w3 >> 28) & 3;
    const isa_opnd *va = &x->in.src[0];
    u32 index = 0, offset = (u32)m->offset;
    unsigned vi = 0;
    if (m->idxen)
        index = w->v[va->idx + vi++][l];
    if (m->offen)
        offset += w->v[va->idx + vi][l];
    if ((w3 >> 23) & 1) /* ADD_TID_ENABLE */
        index += l;
    u64 boff = offset + (u64)stride * index;
    if (swz) {
        u32 esz = 2u << swz, istr = 8u << ((w3 >> 21) & 3);
        boff = ((u64)(index / istr) * stride + offset / esz * esz) * istr + index % istr * esz +
               offset % esz;
    }
    lane_ref r = {XS_GLOBAL, base + x_s32(w, x, 4) + boff, 0};
    if (oob == OOB_RAW && swz && stride)
        oob = OOB_STRUCT;
    switch (oob) {
    case OOB_STRUCT: r.avail = index < num && offset < stride ? stride - offset : 0; break;
    case OOB_INDEX: r.avail = index < num ? UINT64_MAX : 0; break;
    case OOB_NONE: r.avail = num ? UINT64_MAX : 0; break;
    default: r.avail = boff < num ? num - boff : 0; break;
    }
    return r;
}

/* Whether the instruction uses something not modelled (faulting it by name): the lds bit. */
static int rbuf_refuse(wave *w, const xinst *x) {
    if (x->in.f.m.lds) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "buffer loads into LDS are not modelled on RDNA";
        return 1;
    }
    return 0;
}

/* The instruction's access as a raw buffer for vmem.c's fast path (x_rawbuf), when rbuf_ref()
 * reduces to one: no index (no idxen, no ADD_TID), no swizzle, so every lane's address is base
 * + SOFFSET + offset; and its range check one on the offset: OOB 3 against NUM_RECORDS, OOB 0
 * against the stride, OOB 1 and 2 none (index 0 < NUM_RECORDS, NUM_RECORDS != 0).  Returns 0
 * otherwise (and for NUM_RECORDS 0: everything out of range, the per-lane path's business). */
static int rbuf_raw(const wave *w, const xinst *x, x_rawbuf *rb) {
    const u32 *rs = &w->s[x->in.src[3].idx];
    u32 stride = (rs[1] >> 16) & 0x3fff, num = rs[2];
    unsigned oob = (rs[3] >> 28) & 3;
    if (x->in.f.m.idxen || (rs[1] >> 30) || ((rs[3] >> 23) & 1) || !num)
        return 0;
    rb->base = (rs[0] | (u64)(rs[1] & 0xffff) << 32) + x_s32(w, x, 4);
    rb->num = oob == OOB_RAW ? num : oob == OOB_STRUCT ? stride : UINT32_MAX;
    return 1;
}

static void rbuf_load(wave *w, const xinst *x, unsigned kind, unsigned ndw) {
    x_rawbuf rb;
    if (!rbuf_refuse(w, x))
        x_vmem_load(w, x, kind, ndw, rbuf_ref, rbuf_raw(w, x, &rb) ? &rb : NULL);
}
static void rbuf_store(wave *w, const xinst *x, unsigned kind, unsigned ndw) {
    x_rawbuf rb;
    if (!rbuf_refuse(w, x))
        x_vmem_store(w, x, kind, ndw, rbuf_ref, rbuf_raw(w, x, &rb) ? &rb : NULL);
}

/* Atomics return the pre-op value into the first dword(s) of VDATA when asked: gfx11's glc,
 * gfx12's th bit 0 (TH_ATOMIC_RETURN). */
static void rbuf_atomic(wave *w, const xinst *x, int op, int is64) {
    const isa_mem_fields *m = &x->in.f.m;
    int ret = x->in.arch == ISA_GFX1201 ? m->th & 1 : m->glc;
    if (!rbuf_refuse(w, x))
        x_vmem_atomic(w, x, op, is64, rbuf_ref, ret ? &w->v[x->in.src[1].idx] : NULL);
}

/* Unified buffer format (the RDNA3/RDNA4 "Buffer formats" table; the codes are LLVM's
 * BUF_FMT_* values for gfx11/gfx12, which src/isa prints) -> gfx9 DATA_FORMAT and NUM_FORMAT
 * codes, which x_vmem_format converts.  0 (INVALID) and codes past 63 have no entry and fault;
 * the packed formats 30-41 have their own table below. */
#define UF(df, nf) (uint8_t)((df) << 3 | (nf))
enum { UN = 0, SN = 1, US = 2, SS = 3, UI = 4, SI = 5, FL = 7 };
static const uint8_t ufmt[64] = {
    [1] = UF(1, UN),   [2] = UF(1, SN),   [3] = UF(1, US),   [4] = UF(1, SS),   [5] = UF(1, UI),
    [6] = UF(1, SI),   [7] = UF(2, UN),   [8] = UF(2, SN),   [9] = UF(2, US),   [10] = UF(2, SS),
    [11] = UF(2, UI),  [12] = UF(2, SI),  [13] = UF(2, FL),  [14] = UF(3, UN),  [15] = UF(3, SN),
    [16] = UF(3, US),  [17] = UF(3, SS),  [18] = UF(3, UI),  [19] = UF(3, SI),  [20] = UF(4, UI),
    [21] = UF(4, SI),  [22] = UF(4, FL),  [23] = UF(5, UN),  [24] = UF(5, SN),  [25] = UF(5, US),
    [26] = UF(5, SS),  [27] = UF(5, UI),  [28] = UF(5, SI),  [29] = UF(5, FL),  [42] = UF(10, UN),
    [43] = UF(10, SN), [44] = UF(10, US), [45] = UF(10, SS), [46] = UF(10, UI), [47] = UF(10, SI),
    [48] = UF(11, UI), [49] = UF(11, SI), [50] = UF(11, FL), [51] = UF(12, UN), [52] = UF(12, SN),
    [53] = UF(12, US), [54] = UF(12, SS), [55] = UF(12, UI), [56] = UF(12, SI), [57] = UF(12, FL),
    [58] = UF(13, UI), [59] = UF(13, SI), [60] = UF(13, FL), [61] = UF(14, UI), [62] = UF(14, SI),
    [63] = UF(14, FL),
};
/* The packed formats 30-41 (LLVM's BUF_FMT_10_11_11_FLOAT ... BUF_FMT_2_10_10_10_SINT): the
 * layout (vmem.h X_PACKED_*) and the gfx9 NUM_FORMAT code, for x_vmem_format_packed(). */
#define UF_PACKED_FIRST 30
static const uint8_t upacked[12][2] = {
    {X_PACKED_10_11_11, FL},   {X_PACKED_11_11_10, FL},   {X_PACKED_10_10_10_2, UN},
    {X_PACKED_10_10_10_2, SN}, {X_PACKED_10_10_10_2, UI}, {X_PACKED_10_10_10_2, SI},
    {X_PACKED_2_10_10_10, UN}, {X_PACKED_2_10_10_10, SN}, {X_PACKED_2_10_10_10, US},
    {X_PACKED_2_10_10_10, SS}, {X_PACKED_2_10_10_10, UI}, {X_PACKED_2_10_10_10, SI},
};
static int is_packed(unsigned uf) { return uf >= UF_PACKED_FIRST && uf < UF_PACKED_FIRST + 12; }
/* The identity DST_SEL (X, Y, Z, W = 4, 5, 6, 7). */
#define DST_SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)

/* The payload of a format access: the components the op names that the format has. */
static unsigned fmt_payload(unsigned nc, unsigned df) {
    static const uint8_t ncomp[16] = {[1] = 1,  [2] = 1,  [3] = 2,  [4] = 1,  [5] = 2,
                                      [10] = 4, [11] = 2, [12] = 4, [13] = 3, [14] = 4};
    static const uint8_t cbytes[16] = {[1] = 1,  [2] = 2,  [3] = 1,  [4] = 4,  [5] = 2,
                                       [10] = 1, [11] = 4, [12] = 2, [13] = 4, [14] = 4};
    return (nc < ncomp[df] ? nc : ncomp[df]) * cbytes[df];
}

/* The unified format of a format access: the instruction's (tbuffer) or the V#'s. */
static unsigned rbuf_ufmt(const wave *w, const xinst *x, int tbuf) {
    return tbuf ? x->in.f.m.format : (w->s[x->in.src[3].idx + 3] >> 12) & 63;
}

/* Format accesses are range-checked all or nothing: the lane's whole payload is in range, or
 * none of it.  One ref per component count and format source (a ref knows only the lane). */
static lane_ref fmt_ref(const wave *w, const xinst *x, unsigned l, unsigned nc, int tbuf) {
    lane_ref r = rbuf_ref(w, x, l);
    unsigned uf = rbuf_ufmt(w, x, tbuf), e = uf < 64 ? ufmt[uf] : 0;
    r.avail = r.avail >= (is_packed(uf) ? 4 : fmt_payload(nc, e >> 3)) ? UINT64_MAX : 0;
    return r;
}
#define FMT_REF(nc, tbuf)                                                                          \
    static lane_ref fmt_ref_##nc##_##tbuf(const wave *w, const xinst *x, unsigned l) {             \
        return fmt_ref(w, x, l, nc, tbuf);                                                         \
    }
/* clang-format off */
FMT_REF(1, 0) FMT_REF(2, 0) FMT_REF(3, 0) FMT_REF(4, 0)
FMT_REF(1, 1) FMT_REF(2, 1) FMT_REF(3, 1) FMT_REF(4, 1)
static const ref_fn fmt_refs[2][4] = {{fmt_ref_1_0, fmt_ref_2_0, fmt_ref_3_0, fmt_ref_4_0},
                                      {fmt_ref_1_1, fmt_ref_2_1, fmt_ref_3_1, fmt_ref_4_1}};
/* clang-format on */

/* A format load under a V# DST_SEL other than the identity (RDNA3/RDNA4 ISA "Buffer Resource":
 * DST_SEL_X/Y/Z/W [11:0], 3 bits each: 0 the constant 0, 1 the constant 1 (1.0 for the
 * float-valued number formats), 4-7 the loaded X, Y, Z or W; 2 and 3 are reserved and stop the
 * wave by name).  Register component c gets what DST_SEL_c selects from the format's four
 * components as a plain load gives them (a component the format lacks: 0, W 1); the range
 * check stays the instruction's (all or nothing over its own payload).  The four components
 * are loaded into v256-v259, rows past the addressable file, saved and restored around it. */
#define XV_SEL_SCRATCH 256
static void rbuf_format_sel(wave *w, const xinst *x, unsigned nc, int d16, int tbuf, unsigned uf,
                            unsigned e, u32 sel) {
    for (unsigned c = 0; c < nc; c++) {
        unsigned s = (sel >> (3 * c)) & 7;
        if (s == 2 || s == 3) {
            wave_fault(w, x, XF_UNIMPLEMENTED);
            w->fault.note = "a reserved V# DST_SEL (2 or 3)";
            return;
        }
    }
    unsigned nf = is_packed(uf) ? upacked[uf - UF_PACKED_FIRST][1] : e & 7;
    int fl = nf != UI && nf != SI;
    u32 saved[4][LANES], out[4][LANES];
    memcpy(saved, &w->v[XV_SEL_SCRATCH], sizeof saved);
    xinst t = *x;
    t.in.dst[0].kind = ISA_OPND_VGPR;
    t.in.dst[0].idx = XV_SEL_SCRATCH;
    t.in.dst[0].n = d16 ? 2 : 4;
    if (is_packed(uf))
        x_vmem_format_packed(w, &t, 4, d16 != 0, 0, upacked[uf - UF_PACKED_FIRST][0],
                             upacked[uf - UF_PACKED_FIRST][1], fmt_refs[tbuf][nc - 1]);
    else /* (d16_hi: the four halves packed as d16 does, the selected one to the high half) */
        x_vmem_format(w, &t, 4, d16 != 0, 0, e >> 3, e & 7, fmt_refs[tbuf][nc - 1]);
    memcpy(out, &w->v[XV_SEL_SCRATCH], sizeof out);
    memcpy(&w->v[XV_SEL_SCRATCH], saved, sizeof saved);
    if (w->status == WAVE_FAULT)
        return;
    u32(*d)[LANES] = &w->v[x->in.dst[0].idx];
    u64 exec = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        for (unsigned c = 0; c < nc; c++) {
            unsigned s = (sel >> (3 * c)) & 7;
            u32 v;
            if (s == 0)
                v = 0;
            else if (s == 1)
                v = fl ? (d16 ? 0x3c00u : 0x3f800000u) : 1u;
            else if (d16) /* component s - 4 is half (s & 1) of scratch row (s - 4) / 2 */
                v = (out[(s - 4) / 2][l] >> (16 * (s & 1))) & 0xffff;
            else
                v = out[s - 4][l];
            if (d16) {
                unsigned dw = c / 2, sh = d16 == 2 ? 16 : 16 * (c & 1);
                d[dw][l] = (d[dw][l] & ~(0xffffu << sh)) | v << sh;
            } else {
                d[c][l] = v;
            }
        }
    }
}

static void rbuf_format(wave *w, const xinst *x, unsigned nc, int d16, int store, int tbuf) {
    if (rbuf_refuse(w, x))
        return;
    unsigned uf = rbuf_ufmt(w, x, tbuf), e = uf < 64 ? ufmt[uf] : 0;
    if (!e && !is_packed(uf)) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "buffer format not modelled (invalid or packed)";
        return;
    }
    u32 sel = w->s[x->in.src[3].idx + 3] & 0xfff;
    if (!store && sel != DST_SEL_XYZW) {
        rbuf_format_sel(w, x, nc, d16, tbuf, uf, e, sel);
        return;
    }
    if (is_packed(uf))
        x_vmem_format_packed(w, x, nc, d16, store, upacked[uf - UF_PACKED_FIRST][0],
                             upacked[uf - UF_PACKED_FIRST][1], fmt_refs[tbuf][nc - 1]);
    else
        x_vmem_format(w, x, nc, d16, store, e >> 3, e & 7, fmt_refs[tbuf][nc - 1]);
}

/* The handler rows: one X-macro list per engine, one line per op spelling its mnemonic (`grep
 * -rnw buffer_load_b32 src/exec` lands on it); gfx11 and gfx12 share the names.
 * clang-format-22 reflows macro lists differently on every pass, so they are kept as written. */
/* clang-format off */

/* Loads and stores: op, engine, data kind (vmem.h), dwords. */
#define RBUF_LDST(X)                                    \
    X(buffer_load_b32, rbuf_load, K_DW, 1)              \
    X(buffer_load_b64, rbuf_load, K_DW, 2)              \
    X(buffer_load_b96, rbuf_load, K_DW, 3)              \
    X(buffer_load_b128, rbuf_load, K_DW, 4)             \
    X(buffer_load_u8, rbuf_load, K_UB, 1)               \
    X(buffer_load_i8, rbuf_load, K_SB, 1)               \
    X(buffer_load_u16, rbuf_load, K_US, 1)              \
    X(buffer_load_i16, rbuf_load, K_SS, 1)              \
    X(buffer_load_d16_b16, rbuf_load, K_D16_S, 1)       \
    X(buffer_load_d16_u8, rbuf_load, K_D16_UB, 1)       \
    X(buffer_load_d16_i8, rbuf_load, K_D16_SB, 1)       \
    X(buffer_load_d16_hi_b16, rbuf_load, K_D16HI_S, 1)  \
    X(buffer_load_d16_hi_u8, rbuf_load, K_D16HI_UB, 1)  \
    X(buffer_load_d16_hi_i8, rbuf_load, K_D16HI_SB, 1)  \
    X(buffer_store_b32, rbuf_store, K_DW, 1)            \
    X(buffer_store_b64, rbuf_store, K_DW, 2)            \
    X(buffer_store_b96, rbuf_store, K_DW, 3)            \
    X(buffer_store_b128, rbuf_store, K_DW, 4)           \
    X(buffer_store_b8, rbuf_store, K_ST_B, 1)           \
    X(buffer_store_b16, rbuf_store, K_ST_S, 1)          \
    X(buffer_store_d16_hi_b8, rbuf_store, K_ST_BHI, 1)  \
    X(buffer_store_d16_hi_b16, rbuf_store, K_ST_SHI, 1)
#define DEF_LDST(op, fn, kind, n) static void op(wave *w, const xinst *x) { fn(w, x, kind, n); }
RBUF_LDST(DEF_LDST)

/* Formatted accesses: op, components, d16 (1 packed halves, 2 the d16_hi form), store, format
 * from the instruction (tbuffer) instead of the V#. */
#define RBUF_FORMAT(X)                               \
    X(buffer_load_format_x, 1, 0, 0, 0)              \
    X(buffer_load_format_xy, 2, 0, 0, 0)             \
    X(buffer_load_format_xyz, 3, 0, 0, 0)            \
    X(buffer_load_format_xyzw, 4, 0, 0, 0)           \
    X(buffer_load_d16_format_x, 1, 1, 0, 0)          \
    X(buffer_load_d16_format_xy, 2, 1, 0, 0)         \
    X(buffer_load_d16_format_xyz, 3, 1, 0, 0)        \
    X(buffer_load_d16_format_xyzw, 4, 1, 0, 0)       \
    X(buffer_load_d16_hi_format_x, 1, 2, 0, 0)       \
    X(buffer_store_format_x, 1, 0, 1, 0)             \
    X(buffer_store_format_xy, 2, 0, 1, 0)            \
    X(buffer_store_format_xyz, 3, 0, 1, 0)           \
    X(buffer_store_format_xyzw, 4, 0, 1, 0)          \
    X(buffer_store_d16_format_x, 1, 1, 1, 0)         \
    X(buffer_store_d16_format_xy, 2, 1, 1, 0)        \
    X(buffer_store_d16_format_xyz, 3, 1, 1, 0)       \
    X(buffer_store_d16_format_xyzw, 4, 1, 1, 0)      \
    X(buffer_store_d16_hi_format_x, 1, 2, 1, 0)      \
    X(tbuffer_load_format_x, 1, 0, 0, 1)             \
    X(tbuffer_load_format_xy, 2, 0, 0, 1)            \
    X(tbuffer_load_format_xyz, 3, 0, 0, 1)           \
    X(tbuffer_load_format_xyzw, 4, 0, 0, 1)          \
    X(tbuffer_load_d16_format_x, 1, 1, 0, 1)         \
    X(tbuffer_load_d16_format_xy, 2, 1, 0, 1)        \
    X(tbuffer_load_d16_format_xyz, 3, 1, 0, 1)       \
    X(tbuffer_load_d16_format_xyzw, 4, 1, 0, 1)      \
    X(tbuffer_store_format_x, 1, 0, 1, 1)            \
    X(tbuffer_store_format_xy, 2, 0, 1, 1)           \
    X(tbuffer_store_format_xyz, 3, 0, 1, 1)          \
    X(tbuffer_store_format_xyzw, 4, 0, 1, 1)         \
    X(tbuffer_store_d16_format_x, 1, 1, 1, 1)        \
    X(tbuffer_store_d16_format_xy, 2, 1, 1, 1)       \
    X(tbuffer_store_d16_format_xyz, 3, 1, 1, 1)      \
    X(tbuffer_store_d16_format_xyzw, 4, 1, 1, 1)
#define DEF_FORMAT(op, nc, d16, store, tbuf) \
    static void op(wave *w, const xinst *x) { rbuf_format(w, x, nc, d16, store, tbuf); }
RBUF_FORMAT(DEF_FORMAT)

/* Atomics: op, operation (xatomic.h), 64-bit data.  The f32 min/max are xatomic.h's compare as
 * global_atomic_min_f32 (rdna_alu.c); gfx12's _num forms are IEEE minimumNumber/maximumNumber
 * (xatomic.c XA_FMIN_NUM, RDNA4 ISA BUFFER_ATOMIC_MIN_NUM_F32). */
#define RBUF_ATOMIC(X)                                   \
    X(buffer_atomic_add_u32, XA_ADD, 0)                  \
    X(buffer_atomic_sub_u32, XA_SUB, 0)                  \
    X(buffer_atomic_swap_b32, XA_SWAP, 0)                \
    X(buffer_atomic_cmpswap_b32, XA_CMPSWAP, 0)          \
    X(buffer_atomic_min_i32, XA_SMIN, 0)                 \
    X(buffer_atomic_max_i32, XA_SMAX, 0)                 \
    X(buffer_atomic_min_u32, XA_UMIN, 0)                 \
    X(buffer_atomic_max_u32, XA_UMAX, 0)                 \
    X(buffer_atomic_and_b32, XA_AND, 0)                  \
    X(buffer_atomic_or_b32, XA_OR, 0)                    \
    X(buffer_atomic_xor_b32, XA_XOR, 0)                  \
    X(buffer_atomic_inc_u32, XA_INC, 0)                  \
    X(buffer_atomic_dec_u32, XA_DEC, 0)                  \
    X(buffer_atomic_add_u64, XA_ADD, 1)                  \
    X(buffer_atomic_sub_u64, XA_SUB, 1)                  \
    X(buffer_atomic_swap_b64, XA_SWAP, 1)                \
    X(buffer_atomic_cmpswap_b64, XA_CMPSWAP, 1)          \
    X(buffer_atomic_min_i64, XA_SMIN, 1)                 \
    X(buffer_atomic_max_i64, XA_SMAX, 1)                 \
    X(buffer_atomic_min_u64, XA_UMIN, 1)                 \
    X(buffer_atomic_max_u64, XA_UMAX, 1)                 \
    X(buffer_atomic_and_b64, XA_AND, 1)                  \
    X(buffer_atomic_or_b64, XA_OR, 1)                    \
    X(buffer_atomic_xor_b64, XA_XOR, 1)                  \
    X(buffer_atomic_inc_u64, XA_INC, 1)                  \
    X(buffer_atomic_dec_u64, XA_DEC, 1)                  \
    X(buffer_atomic_add_f32, XA_FADD, 0)                 \
    X(buffer_atomic_min_f32, XA_FMIN, 0)                 \
    X(buffer_atomic_max_f32, XA_FMAX, 0)                 \
    X(buffer_atomic_min_num_f32, XA_FMIN_NUM, 0)         \
    X(buffer_atomic_max_num_f32, XA_FMAX_NUM, 0)         \
    X(buffer_atomic_pk_add_f16, XA_PK_ADD_F16, 0)        \
    X(buffer_atomic_pk_add_bf16, XA_PK_ADD_BF16, 0)      \
    X(buffer_atomic_cmpswap_f32, XA_CMPSWAP_F, 0)        \
    X(buffer_atomic_csub_u32, XA_CSUB, 0)                \
    X(buffer_atomic_sub_clamp_u32, XA_CSUB, 0)           \
    X(buffer_atomic_cond_sub_u32, XA_COND_SUB, 0)
#define DEF_ATOMIC(op, aop, is64) \
    static void op(wave *w, const xinst *x) { rbuf_atomic(w, x, aop, is64); }
RBUF_ATOMIC(DEF_ATOMIC)
/* clang-format on */

/* ---- cross-lane ------------------------------------------------------------------------------
 * V_PERMLANE16_B32 / V_PERMLANEX16_B32 (RDNA3/RDNA4 ISA VOP3): lane i of each row of 16 lanes
 * reads lane sel(i) of the same row (permlane16) or of the other row of its 32-lane half
 * (permlanex16), sel(i) = bits [4i+3:4i] of the 64-bit {S2, S1}; wave64 does both halves.
 * gfx12's _VAR forms take each lane's select from bits [3:0] of its own S1 VGPR.  op_sel[0] is
 * FI, op_sel[1] BOUND_CTRL, with DPP's meaning: a source lane that is not in EXEC is read anyway
 * with FI; without it the lane is invalid, and an invalid lane writes 0 with BOUND_CTRL and is
 * left unwritten without. */
static void permlane(wave *w, const xinst *x, int cross, int var) {
    u32 t[LANES], t1[LANES];
    const u32 *s = vs32(w, x, 0, t, FK_RAW), *vsel = var ? vs32(w, x, 1, t1, FK_RAW) : NULL;
    u64 sel = var ? 0 : x_s32(w, x, 1) | (u64)x_s32(w, x, 2) << 32, e = wave_exec(w), wm = e;
    int fi = x->in.f.v.opsel & 1, bc = (x->in.f.v.opsel >> 1) & 1;
    u32 d[LANES] = {0};
    for (unsigned l = 0; l < LANES; l++) {
        unsigned k = var ? vsel[l] & 15 : (unsigned)((sel >> (4 * (l & 15))) & 15);
        unsigned src = ((l & ~15u) + k) ^ (cross ? 16 : 0);
        if (fi || ((e >> src) & 1))
            d[l] = s[src];
        else if (!bc)
            wm &= ~(1ull << l);
    }
    vstore(vdreg(w, &x->in.dst[0]), d, wm);
}
static void v_permlane16_b32(wave *w, const xinst *x) { permlane(w, x, 0, 0); }
static void v_permlanex16_b32(wave *w, const xinst *x) { permlane(w, x, 1, 0); }
static void v_permlane16_var_b32(wave *w, const xinst *x) { permlane(w, x, 0, 1); }
static void v_permlanex16_var_b32(wave *w, const xinst *x) { permlane(w, x, 1, 1); }

/* V_PERMLANE64_B32 (RDNA3 ISA VOP1): wave64 swaps the halves, D[i] = S0[i ^ 32] (read from
 * every lane, EXEC or not, as the manual's loop over all 64 lanes); a no-op in wave32. */
static void v_permlane64_b32(wave *w, const xinst *x) {
    if (x->xf & XI_MASK32)
        return;
    u32 t[LANES], d[LANES];
    const u32 *s = vs32(w, x, 0, t, FK_RAW);
    for (unsigned l = 0; l < LANES; l++)
        d[l] = s[l ^ 32];
    vstore(vdreg(w, &x->in.dst[0]), d, wave_exec(w));
}

/* V_ALIGNBIT_B32 / V_ALIGNBYTE_B32 on gfx11/gfx12 name the shift a 16-bit operand: S2 may be
 * the high half of a VGPR (v3.h, or op_sel), whose bits [4:0] ([1:0] for alignbyte) are the shift.
 * S0 and S1 are whole registers.  D = ({S0, S1} >> shift)[31:0]. */
static void align(wave *w, const xinst *x, unsigned unit) {
    u32 ta[LANES], tb[LANES], tc[LANES], d[LANES];
    const u32 *a = vs32(w, x, 0, ta, FK_RAW), *b = vs32(w, x, 1, tb, FK_RAW),
              *c = vs32(w, x, 2, tc, FK_RAW);
    const isa_opnd *o = &x->in.src[2];
    /* the high half: gfx11's v3.h, or gfx12's op_sel:[0,0,1,0] on a VGPR (LLVM 22 prints
     * "v3 op_sel:[0,0,1,0]" there; test_valu_forms found it ignored) */
    unsigned sh = o->kind == ISA_OPND_VGPR && (o->imm == ISA_HALF_H || (x->in.f.v.opsel & 4)) ? 16
                                                                                              : 0,
             mask = unit == 1 ? 31 : 3;
    for (unsigned l = 0; l < LANES; l++)
        d[l] = (u32)((((u64)a[l] << 32) | b[l]) >> (unit * ((c[l] >> sh) & mask)));
    vd32(w, x, d, FK_RAW); /* the DPP forms' write mask */
}
static void v_alignbit_b32(wave *w, const xinst *x) { align(w, x, 1); }
static void v_alignbyte_b32(wave *w, const xinst *x) { align(w, x, 8); }

/* ---- rows ---------------------------------------------------------------------------------- */

#define ROW(op, ...) OWN(op, ISA_T_B32, op),
/* GLOBAL_LOAD/STORE_ADDTID_B32 (RDNA3/RDNA4 ISA "Global"): no VGPR address; lane l accesses
 * the dword at SADDR (0 when saddr is off) + the signed offset + l * 4.  A lane whose dword is
 * not mapped faults as any global access does; lanes before it have completed. */
static void global_addtid(wave *w, const xinst *x, int write) {
    const isa_opnd *sa = &x->in.src[3];
    u64 base = sa->kind == ISA_OPND_SREG ? w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32 : 0;
    base += (u64)(int64_t)x->in.f.m.offset;
    u64 e = wave_exec(w);
    u32 *reg = write ? vdreg(w, &x->in.src[1]) : vdreg(w, &x->in.dst[0]);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((e >> l) & 1))
            continue;
        u64 a = base + 4ull * l;
        void *p = x_gmem(w, x, a, 4, write, (int)l);
        if (!p) {
            wave_mem_fault(w, x, a, 4, write);
            return;
        }
        if (write)
            x_shared_store(p, &reg[l], 4);
        else
            x_shared_load(&reg[l], p, 4);
    }
}
static void global_load_addtid_b32(wave *w, const xinst *x) { global_addtid(w, x, 0); }
static void global_store_addtid_b32(wave *w, const xinst *x) { global_addtid(w, x, 1); }

/* clang-format off */
const rdna_row x_rdna_mem_rows[] = {
    RBUF_LDST(ROW) RBUF_FORMAT(ROW) RBUF_ATOMIC(ROW)
    OWN(v_permlane16_b32, ISA_T_B32, v_permlane16_b32),
    OWN(v_permlanex16_b32, ISA_T_B32, v_permlanex16_b32),
    OWN(v_permlane64_b32, ISA_T_B32, v_permlane64_b32),
    OWN(v_permlane16_var_b32, ISA_T_B32, v_permlane16_var_b32),
    OWN(v_permlanex16_var_b32, ISA_T_B32, v_permlanex16_var_b32),
    /* the true16 shift operand: .l and .h (the other sources are whole registers) */
    OWNV16(v_alignbit_b32, ISA_T_B32, v_alignbit_b32),
    OWNV16(v_alignbyte_b32, ISA_T_B32, v_alignbyte_b32),
    /* DS_CMPSTORE_* (RDNA3 ISA "LDS"): DATA is the new value and DATA2 the compare value, the
     * other way round from gfx9's DS_CMPST_*; x_rdna_remap() swaps the two decoded operands at
     * build time, so gfx9's handler runs (and undoes it for printing) */
    AS(ds_cmpstore_b32, ds_cmpst_b32), AS(ds_cmpstore_rtn_b32, ds_cmpst_rtn_b32),
    AS(ds_cmpstore_b64, ds_cmpst_b64), AS(ds_cmpstore_rtn_b64, ds_cmpst_rtn_b64),
    AS(ds_cmpstore_f32, ds_cmpst_f32), AS(ds_cmpstore_rtn_f32, ds_cmpst_rtn_f32),
    AS(ds_cmpstore_f64, ds_cmpst_f64), AS(ds_cmpstore_rtn_f64, ds_cmpst_rtn_f64),
    /* DS_APPEND / DS_CONSUME (RDNA3/RDNA4 ISA "DS"): the counter at M0 + offset gains (loses)
     * the number of active lanes, every active lane gets the value before.  The manuals write
     * M0.base; clang-22 puts the counter's LDS byte address in M0 (s_mov_b32 m0, 4), which is
     * the gfx9 handler's rule (M0[15:0] + offset) */
    RUN(ds_append), RUN(ds_consume),
    /* more DS ops whose gfx9 pseudocode RDNA3 repeats */
    RUN(ds_mskor_b32), RUN(ds_mskor_b64), RUN(ds_mskor_rtn_b32), RUN(ds_mskor_rtn_b64),
    RUN(ds_rsub_u64), RUN(ds_rsub_rtn_u64), RUN(ds_min_f64), RUN(ds_max_f64),
    RUN(ds_min_rtn_f64), RUN(ds_max_rtn_f64), RUN(ds_wrap_rtn_b32), RUN(ds_nop),
    AS(ds_storexchg_2addr_rtn_b32, ds_wrxchg2_rtn_b32),
    AS(ds_storexchg_2addr_rtn_b64, ds_wrxchg2_rtn_b64),
    AS(ds_storexchg_2addr_stride64_rtn_b32, ds_wrxchg2st64_rtn_b32),
    AS(ds_storexchg_2addr_stride64_rtn_b64, ds_wrxchg2st64_rtn_b64),
    OWN(global_load_addtid_b32, ISA_T_B32, global_load_addtid_b32),
    OWN(global_store_addtid_b32, ISA_T_B32, global_store_addtid_b32),
    /* DS_LOAD/STORE_ADDTID_B32 (RDNA3/RDNA4 ISA "DS"): lane l at M0[15:0] + offset + l * 4, the
     * gfx9 pseudocode (ds_read/write_addtid_b32) */
    AS(ds_load_addtid_b32, ds_read_addtid_b32), AS(ds_store_addtid_b32, ds_write_addtid_b32),
    /* gfx12 packed 16-bit LDS adds */
    RUN(ds_pk_add_f16), RUN(ds_pk_add_rtn_f16), RUN(ds_pk_add_bf16), RUN(ds_pk_add_rtn_bf16),
};
/* clang-format on */
const unsigned x_rdna_mem_nrows = sizeof x_rdna_mem_rows / sizeof x_rdna_mem_rows[0];
