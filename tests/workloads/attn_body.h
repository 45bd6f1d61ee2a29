/* attn_body.h - flash attention forward and backward for head dimension HD (64 or 128),
 * instantiated by attention.cl.  See attention.cl for the data layout and the MFMA layout trick
 * that lets every per-query quantity stay in the lane that owns the query. */

#define KRN(name) KRN2(name, HD)
#define KRN2(name, d) KRN3(name, d)
#define KRN3(name, d) name##_d##d
#define NDT (HD / 16) /* 16-wide slices of the head dimension */
#define PITCH (HD + 8)

/* One lane's A or B operand from a row-major bf16 tile: row r, the 4 values from column c. */
#define OP4(tile, r, c) (*(local const short4 *)&(tile)[r][c])

/* ---- forward ------------------------------------------------------------------------------- */
kernel void KRN(attn_fwd)(global const ushort *Q, global const ushort *K, global const ushort *V,
                          global float *O, global float *LSE, int S, float scale, int causal) {
    local ushort Ks[64][PITCH]; /* keys of this block, row-major */
    local ushort Vt[HD][72];    /* their values, transposed: Vt[d][key] */
    const int t = __builtin_amdgcn_workitem_id_x(), lane = t & 63, w = t >> 6;
    const int h = __builtin_amdgcn_workgroup_id_y(), qb = __builtin_amdgcn_workgroup_id_x() * 64;
    const int q0 = qb + w * 16, qi = q0 + (lane & 15), g = lane >> 4;
    const long base = (long)h * S * HD;
    const float sl2 = scale * LOG2E;

    short4 qr[NDT]; /* B operand of S^T = K Q^T: query lane&15, d = 16*ds + 4g + 0..3 */
    for (int ds = 0; ds < NDT; ds++)
        qr[ds] =
            qi < S ? *(global const short4 *)&Q[base + (long)qi * HD + ds * 16 + 4 * g] : (short4)0;
    float m = -INFINITY, l = 0;
    float4 acc[NDT]; /* O^T: acc[dt][v] = O[query lane&15][16*dt + 4g + v] (unnormalised) */
    for (int dt = 0; dt < NDT; dt++)
        acc[dt] = 0;

    const int kend = causal ? imin(S, qb + 64) : S;
    for (int kb = 0; kb < kend; kb += 64) {
        WG_BARRIER();
        stage_rows(Ks[0], PITCH, K + base, kb, 64, S, HD, t);
        stage_cols(Vt[0], 72, V + base, kb, 64, S, HD, t);
        WG_BARRIER();
        for (int kt = 0; kt < 4; kt++) {
            const int key0 = kb + kt * 16;
            if (key0 >= S || (causal && key0 > q0 + 15))
                break; /* the rest of the block is masked for every query of this wave */
            float4 s = 0;
            for (int ds = 0; ds < NDT; ds++)
                s = MMA(OP4(Ks, kt * 16 + (lane & 15), ds * 16 + 4 * g), qr[ds], s);
            /* s[v] = score of query qi and key key0 + 4g + v */
            float mx = -INFINITY;
            for (int v = 0; v < 4; v++) {
                int key = key0 + 4 * g + v;
                float x = s[v] * sl2;
                if (key >= S || (causal && key > qi))
                    x = -INFINITY;
                s[v] = x;
                mx = __builtin_fmaxf(mx, x);
            }
            mx = __builtin_fmaxf(mx, xor_lanes(mx, 16));
            mx = __builtin_fmaxf(mx, xor_lanes(mx, 32));
            const float mn = __builtin_fmaxf(m, mx);
            const float alpha = mn == -INFINITY ? 1.0f : exp2_(m - mn);
            float ps = 0;
            short4 p;
            for (int v = 0; v < 4; v++) {
                ushort b = to_bf16(mn == -INFINITY ? 0.0f : exp2_(s[v] - mn));
                p[v] = (short)b;
                ps += from_bf16(b); /* normalise by the weights actually used */
            }
            ps += xor_lanes(ps, 16);
            ps += xor_lanes(ps, 32);
            l = l * alpha + ps;
            m = mn;
            for (int dt = 0; dt < NDT; dt++)
                acc[dt] = MMA(OP4(Vt, dt * 16 + (lane & 15), kt * 16 + 4 * g), p, acc[dt] * alpha);
        }
    }
    if (qi < S) {
        const float inv = l > 0 ? 1.0f / l : 0.0f;
        for (int dt = 0; dt < NDT; dt++)
            for (int v = 0; v < 4; v++)
                O[base + (long)qi * HD + dt * 16 + 4 * g + v] = acc[dt][v] * inv;
        if (g == 0)
            LSE[(long)h * S + qi] = m + __builtin_amdgcn_logf(l);
    }
}

/* ---- backward: dK and dV, one block of 64 keys per workgroup, 16 per wave ------------------- */
kernel void KRN(attn_bwd_dkdv)(global const ushort *Q, global const ushort *K,
                               global const ushort *V, global const ushort *dO,
                               global const float *LSE, global const float *Di, global float *dK,
                               global float *dV, int S, float scale, int causal) {
    local ushort Qs[32][PITCH], dOs[32][PITCH]; /* 32 queries, row-major */
    local ushort Qt[HD][40], dOt[HD][40];       /* the same, transposed: [d][query] */
    local float lse_s[32], di_s[32];
    const int t = __builtin_amdgcn_workitem_id_x(), lane = t & 63, w = t >> 6;
    const int h = __builtin_amdgcn_workgroup_id_y(), kb = __builtin_amdgcn_workgroup_id_x() * 64;
    const int k0 = kb + w * 16, ki = k0 + (lane & 15), g = lane >> 4;
    const long base = (long)h * S * HD;
    const float sl2 = scale * LOG2E;

    short4 kr[NDT], vr[NDT]; /* B operands: key lane&15, d = 16*ds + 4g + 0..3 */
    for (int ds = 0; ds < NDT; ds++) {
        long o = base + (long)ki * HD + ds * 16 + 4 * g;
        kr[ds] = ki < S ? *(global const short4 *)&K[o] : (short4)0;
        vr[ds] = ki < S ? *(global const short4 *)&V[o] : (short4)0;
    }
    float4 dkt[NDT], dvt[NDT]; /* [dt][v]: d = 16*dt + 4g + v of key lane&15 */
    for (int dt = 0; dt < NDT; dt++)
        dkt[dt] = dvt[dt] = 0;

    for (int qb = causal ? kb / 32 * 32 : 0; qb < S; qb += 32) {
        WG_BARRIER();
        stage_rows(Qs[0], PITCH, Q + base, qb, 32, S, HD, t);
        stage_rows(dOs[0], PITCH, dO + base, qb, 32, S, HD, t);
        stage_cols(Qt[0], 40, Q + base, qb, 32, S, HD, t);
        stage_cols(dOt[0], 40, dO + base, qb, 32, S, HD, t);
        if (t < 32) {
            lse_s[t] = qb + t < S ? LSE[(long)h * S + qb + t] : 0.0f;
            di_s[t] = qb + t < S ? Di[(long)h * S + qb + t] : 0.0f;
        }
        WG_BARRIER();
        for (int qt = 0; qt < 2; qt++) {
            const int qq0 = qb + qt * 16;
            if (qq0 >= S || (causal && qq0 + 15 < k0))
                continue; /* every (query, key) pair of this tile is masked */
            float4 s = 0, dp = 0;
            for (int ds = 0; ds < NDT; ds++) {
                s = MMA(OP4(Qs, qt * 16 + (lane & 15), ds * 16 + 4 * g), kr[ds], s);
                dp = MMA(OP4(dOs, qt * 16 + (lane & 15), ds * 16 + 4 * g), vr[ds], dp);
            }
            /* s[v], dp[v]: query qq0 + 4g + v, key ki */
            short4 p, dsc;
            for (int v = 0; v < 4; v++) {
                int qx = qt * 16 + 4 * g + v, q = qb + qx;
                float pv =
                    q >= S || ki >= S || (causal && ki > q) ? 0.0f : exp2_(s[v] * sl2 - lse_s[qx]);
                ushort pb = to_bf16(pv);
                p[v] = (short)pb;
                dsc[v] = (short)to_bf16(pv * (dp[v] - di_s[qx]));
            }
            for (int dt = 0; dt < NDT; dt++) {
                dvt[dt] = MMA(OP4(dOt, dt * 16 + (lane & 15), qt * 16 + 4 * g), p, dvt[dt]);
                dkt[dt] = MMA(OP4(Qt, dt * 16 + (lane & 15), qt * 16 + 4 * g), dsc, dkt[dt]);
            }
        }
    }
    if (ki < S)
        for (int dt = 0; dt < NDT; dt++)
            for (int v = 0; v < 4; v++) {
                long o = base + (long)ki * HD + dt * 16 + 4 * g + v;
                dV[o] = dvt[dt][v];
                dK[o] = dkt[dt][v] * scale;
            }
}

/* ---- backward: dQ, one block of 64 queries per workgroup, 16 per wave ----------------------- */
kernel void KRN(attn_bwd_dq)(global const ushort *Q, global const ushort *K, global const ushort *V,
                             global const ushort *dO, global const float *LSE,
                             global const float *Di, global float *dQ, int S, float scale,
                             int causal) {
    local ushort Ks[64][PITCH], Vs[64][PITCH]; /* keys and values, row-major */
    local ushort Kt[HD][72];                   /* keys transposed: [d][key] */
    const int t = __builtin_amdgcn_workitem_id_x(), lane = t & 63, w = t >> 6;
    const int h = __builtin_amdgcn_workgroup_id_y(), qb = __builtin_amdgcn_workgroup_id_x() * 64;
    const int q0 = qb + w * 16, qi = q0 + (lane & 15), g = lane >> 4;
    const long base = (long)h * S * HD;
    const float sl2 = scale * LOG2E;

    short4 qr[NDT], dor[NDT]; /* B operands: query lane&15, d = 16*ds + 4g + 0..3 */
    for (int ds = 0; ds < NDT; ds++) {
        long o = base + (long)qi * HD + ds * 16 + 4 * g;
        qr[ds] = qi < S ? *(global const short4 *)&Q[o] : (short4)0;
        dor[ds] = qi < S ? *(global const short4 *)&dO[o] : (short4)0;
    }
    const float lse = qi < S ? LSE[(long)h * S + qi] : 0, di = qi < S ? Di[(long)h * S + qi] : 0.0f;
    float4 dqt[NDT]; /* [dt][v]: d = 16*dt + 4g + v of query lane&15 */
    for (int dt = 0; dt < NDT; dt++)
        dqt[dt] = 0;

    const int kend = causal ? imin(S, qb + 64) : S;
    for (int kb = 0; kb < kend; kb += 64) {
        WG_BARRIER();
        stage_rows(Ks[0], PITCH, K + base, kb, 64, S, HD, t);
        stage_rows(Vs[0], PITCH, V + base, kb, 64, S, HD, t);
        stage_cols(Kt[0], 72, K + base, kb, 64, S, HD, t);
        WG_BARRIER();
        for (int kt = 0; kt < 4; kt++) {
            const int key0 = kb + kt * 16;
            if (key0 >= S || (causal && key0 > q0 + 15))
                break;
            float4 s = 0, dpt = 0;
            for (int ds = 0; ds < NDT; ds++) {
                s = MMA(OP4(Ks, kt * 16 + (lane & 15), ds * 16 + 4 * g), qr[ds], s);
                dpt = MMA(OP4(Vs, kt * 16 + (lane & 15), ds * 16 + 4 * g), dor[ds], dpt);
            }
            /* s[v], dpt[v]: query qi, key key0 + 4g + v */
            short4 dsc;
            for (int v = 0; v < 4; v++) {
                int key = key0 + 4 * g + v;
                float pv =
                    qi >= S || key >= S || (causal && key > qi) ? 0.0f : exp2_(s[v] * sl2 - lse);
                dsc[v] = (short)to_bf16(pv * (dpt[v] - di));
            }
            for (int dt = 0; dt < NDT; dt++)
                dqt[dt] = MMA(OP4(Kt, dt * 16 + (lane & 15), kt * 16 + 4 * g), dsc, dqt[dt]);
        }
    }
    if (qi < S)
        for (int dt = 0; dt < NDT; dt++)
            for (int v = 0; v < 4; v++)
                dQ[base + (long)qi * HD + dt * 16 + 4 * g + v] = dqt[dt][v] * scale;
}

#undef KRN
#undef KRN2
#undef KRN3
#undef NDT
#undef PITCH
#undef OP4
#undef HD
