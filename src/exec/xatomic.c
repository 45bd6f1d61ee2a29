/* xatomic.c - see xatomic.h. */
#include "exec/xatomic.h"
#include "exec/valu.h" /* f16/bf16 conversions */

uint64_t x_atomic_apply_all(int op, uint64_t m, uint64_t v, uint64_t v2, int is64) {
    uint64_t mask = is64 ? ~0ull : 0xffffffffull;
    int64_t sm = is64 ? (int64_t)m : (int32_t)(uint32_t)m;
    int64_t sv = is64 ? (int64_t)v : (int32_t)(uint32_t)v;
    double fm = is64 ? f64(m) : f32((uint32_t)m), fv = is64 ? f64(v) : f32((uint32_t)v);
    switch (op) {
    case XA_ADD: return (m + v) & mask;
    case XA_SUB: return (m - v) & mask;
    case XA_RSUB: return (v - m) & mask;
    case XA_SWAP: return v;
    case XA_CMPSWAP: return m == v2 ? v : m;
    case XA_CMPSWAP_F: return fm == (is64 ? f64(v2) : f32((uint32_t)v2)) ? v : m;
    case XA_SMIN: return sv < sm ? v : m;
    case XA_UMIN: return v < m ? v : m;
    case XA_SMAX: return sv > sm ? v : m;
    case XA_UMAX: return v > m ? v : m;
    case XA_AND: return m & v;
    case XA_OR: return m | v;
    case XA_XOR: return m ^ v;
    case XA_INC: return m >= v ? 0 : m + 1;
    case XA_DEC: return (m == 0 || m > v) ? v : m - 1;
    case XA_MSKOR: return (m & ~v) | v2;
    case XA_FADD: return is64 ? bf64(fm + fv) : bf32((float)fm + (float)fv);
    case XA_FMIN: return fv < fm ? v : m;
    case XA_FMAX: return fv > fm ? v : m;
    case XA_CSUB: return m < v ? 0 : (m - v) & mask;
    case XA_COND_SUB: return m >= v ? (m - v) & mask : m;
    case XA_FMIN_NUM:
    case XA_FMAX_NUM: {
        /* RDNA4 ISA DS_MIN_NUM_F32 / DS_MAX_NUM_F32 (and _F64, the BUFFER/GLOBAL/FLAT forms):
         * both NaN: DATA quieted; DATA NaN (quiet or signalling): MEM kept; MEM NaN: DATA;
         * else the smaller (larger) with -0 < +0. */
        int nv = fv != fv, nm = fm != fm;
        uint64_t sign = is64 ? 1ull << 63 : 1ull << 31;
        if (nv && nm)
            return v | (is64 ? 1ull << 51 : 1ull << 22);
        if (nv || nm)
            return nv ? m : v;
        if (fv == 0 && fm == 0) /* +-0: min takes DATA only if it is -0 and MEM +0 */
            return (op == XA_FMIN_NUM ? (v & sign) && !(m & sign) : !(v & sign) && (m & sign)) ? v
                                                                                               : m;
        return (op == XA_FMIN_NUM ? fv < fm : fv > fm) ? v : m;
    }
    case XA_PK_ADD_F16:
        return d2h(h2d((uint32_t)m & 0xffff) + h2d((uint32_t)v & 0xffff)) |
               (uint64_t)d2h(h2d((uint32_t)(m >> 16) & 0xffff) + h2d((uint32_t)(v >> 16) & 0xffff))
                   << 16;
    default: { /* XA_PK_ADD_BF16: bf16 is the high half of an f32 */
        double lo = f32((uint32_t)m << 16) + f32((uint32_t)v << 16);
        double hi = f32((uint32_t)m & 0xffff0000u) + f32((uint32_t)v & 0xffff0000u);
        return d2bf(lo) | (uint64_t)d2bf(hi) << 16;
    }
    }
}

uint64_t x_atomic_rmw(void *p, int op, uint64_t v, uint64_t v2, int is64) {
    return x_atomic_rmw_inl(p, op, v, v2, is64);
}
