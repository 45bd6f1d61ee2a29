/* meta.c - AMDGPU code-object metadata (a msgpack map in the NT_AMDGPU_METADATA note) and the
 * 64-byte kernel descriptor.
 *
 * Facts from LLVM's "AMDGPU Usage": "Code Object V3..V5 Metadata" for the keys, "Kernel
 * Descriptor" and the compute_pgm_rsrc1/2/3 tables for the bit fields.  The msgpack reader is a
 * small bounded cursor: every length is checked against the bytes left before it is used, nesting
 * is limited to LD_META_DEPTH, and an array or map never claims more elements than there are bytes
 * (each element takes at least one), so a corrupted note costs time proportional to its size.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load.h"

/* ---- msgpack cursor (the msgpack specification's type table) --------------------------------- */

enum { MP_NIL, MP_BOOL, MP_UINT, MP_INT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP, MP_EXT };

typedef struct {
    const uint8_t *p;
    size_t n, pos;
    char *err;
    size_t errsz;
    int failed;
} mp_cur;

typedef struct {
    int type;
    uint64_t u;       /* MP_UINT, MP_BOOL; element count for MP_ARRAY/MP_MAP */
    int64_t i;        /* MP_INT (negative values only; non-negative ones come as MP_UINT) */
    const uint8_t *s; /* MP_STR/MP_BIN/MP_EXT payload */
    uint32_t len;     /* payload bytes */
} mp_obj;

__attribute__((format(printf, 2, 3))) static int mp_fail(mp_cur *c, const char *fmt, ...) {
    if (!c->failed && c->err && c->errsz) {
        va_list ap;
        va_start(ap, fmt);
        int k = snprintf(c->err, c->errsz, "metadata: ");
        if (k >= 0 && (size_t)k < c->errsz)
            vsnprintf(c->err + k, c->errsz - (size_t)k, fmt, ap);
        va_end(ap);
    }
    c->failed = 1;
    return -1;
}

static int take(mp_cur *c, size_t k, const uint8_t **out) {
    if (k > c->n - c->pos)
        return mp_fail(c, "truncated at byte %zu", c->pos);
    *out = c->p + c->pos;
    c->pos += k;
    return 0;
}

static int be(mp_cur *c, unsigned k, uint64_t *v) {
    const uint8_t *b = NULL;
    if (take(c, k, &b))
        return -1;
    *v = 0;
    for (unsigned i = 0; i < k; i++)
        *v = *v << 8 | b[i];
    return 0;
}

/* Read one object's header; strings, binaries and extensions are consumed whole, arrays and maps
 * leave their elements to follow. */
static int mp_next(mp_cur *c, mp_obj *o) {
    const uint8_t *b = NULL;
    uint64_t v = 0;
    memset(o, 0, sizeof *o);
    if (take(c, 1, &b))
        return -1;
    unsigned t = b[0];
    unsigned payload_len_bytes = 0; /* for str/bin/ext with explicit length */
    unsigned count_len_bytes = 0;   /* for array/map with an explicit element count */
    if (t <= 0x7f) {
        o->type = MP_UINT, o->u = t;
        return 0;
    }
    if (t >= 0xe0) {
        o->type = MP_INT, o->i = (int8_t)t;
        return 0;
    }
    if (t >= 0x80 && t <= 0x8f) {
        o->type = MP_MAP, o->u = t & 0xf;
        goto count;
    }
    if (t >= 0x90 && t <= 0x9f) {
        o->type = MP_ARRAY, o->u = t & 0xf;
        goto count;
    }
    if (t >= 0xa0 && t <= 0xbf) {
        o->type = MP_STR, o->len = t & 0x1f;
        goto payload;
    }
    switch (t) {
    case 0xc0: o->type = MP_NIL; return 0;
    case 0xc2:
    case 0xc3: o->type = MP_BOOL, o->u = t == 0xc3; return 0;
    case 0xc4: o->type = MP_BIN, payload_len_bytes = 1; break;
    case 0xc5: o->type = MP_BIN, payload_len_bytes = 2; break;
    case 0xc6: o->type = MP_BIN, payload_len_bytes = 4; break;
    case 0xc7: o->type = MP_EXT, payload_len_bytes = 1; break;
    case 0xc8: o->type = MP_EXT, payload_len_bytes = 2; break;
    case 0xc9: o->type = MP_EXT, payload_len_bytes = 4; break;
    case 0xca: o->type = MP_FLOAT; return take(c, 4, &b);
    case 0xcb: o->type = MP_FLOAT; return take(c, 8, &b);
    case 0xcc: o->type = MP_UINT; return be(c, 1, &o->u);
    case 0xcd: o->type = MP_UINT; return be(c, 2, &o->u);
    case 0xce: o->type = MP_UINT; return be(c, 4, &o->u);
    case 0xcf: o->type = MP_UINT; return be(c, 8, &o->u);
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: {
        unsigned k = 1u << (t - 0xd0);
        if (be(c, k, &v))
            return -1;
        int64_t x = k == 8 ? (int64_t)v : (int64_t)(v << (64 - 8 * k)) >> (64 - 8 * k);
        if (x >= 0)
            o->type = MP_UINT, o->u = (uint64_t)x;
        else
            o->type = MP_INT, o->i = x;
        return 0;
    }
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8: /* fixext: type byte + 1..16 bytes */
        o->type = MP_EXT, o->len = 1u << (t - 0xd4);
        if (take(c, 1, &b))
            return -1;
        goto payload;
    case 0xd9: o->type = MP_STR, payload_len_bytes = 1; break;
    case 0xda: o->type = MP_STR, payload_len_bytes = 2; break;
    case 0xdb: o->type = MP_STR, payload_len_bytes = 4; break;
    case 0xdc: o->type = MP_ARRAY, count_len_bytes = 2; goto count;
    case 0xdd: o->type = MP_ARRAY, count_len_bytes = 4; goto count;
    case 0xde: o->type = MP_MAP, count_len_bytes = 2; goto count;
    case 0xdf: o->type = MP_MAP, count_len_bytes = 4; goto count;
    default: return mp_fail(c, "invalid type byte 0x%02x at byte %zu", t, c->pos - 1);
    }
    if (be(c, payload_len_bytes, &v))
        return -1;
    o->len = (uint32_t)v;
    if (o->type == MP_EXT && take(c, 1, &b))
        return -1;
payload:
    return take(c, o->len, &o->s);
count:
    if (count_len_bytes && be(c, count_len_bytes, &o->u))
        return -1;
    /* Every element is at least one byte (a map entry two): a count larger than what is left is
     * corruption, and rejecting it here bounds every loop over elements. */
    if (o->u > (c->n - c->pos) / (o->type == MP_MAP ? 2 : 1))
        return mp_fail(c, "%s of %llu elements in %zu bytes", o->type == MP_MAP ? "map" : "array",
                       (unsigned long long)o->u, c->n - c->pos);
    return 0;
}

static int mp_skip_body(mp_cur *c, const mp_obj *o, int depth);

/* Skip one whole object. */
static int mp_skip(mp_cur *c, int depth) {
    mp_obj o;
    if (mp_next(c, &o))
        return -1;
    return mp_skip_body(c, &o, depth);
}

/* Skip the elements of an array or map whose header was just read. */
static int mp_skip_body(mp_cur *c, const mp_obj *o, int depth) {
    if (o->type != MP_ARRAY && o->type != MP_MAP)
        return 0;
    if (depth >= LD_META_DEPTH)
        return mp_fail(c, "nested deeper than %d levels", LD_META_DEPTH);
    uint64_t n = o->type == MP_MAP ? o->u * 2 : o->u;
    for (uint64_t i = 0; i < n; i++)
        if (mp_skip(c, depth + 1))
            return -1;
    return 0;
}

/* ---- typed values ---------------------------------------------------------------------------- */

static int key_is(const mp_obj *k, const char *s) {
    size_t n = strlen(s);
    return k->type == MP_STR && k->len == n && memcmp(k->s, s, n) == 0;
}

static int get_str(mp_cur *c, const mp_obj *key, char **out) {
    mp_obj o;
    if (mp_next(c, &o))
        return -1;
    if (o.type != MP_STR)
        return mp_fail(c, "%.*s is not a string", (int)key->len, (const char *)key->s);
    char *s = malloc((size_t)o.len + 1);
    if (!s)
        return mp_fail(c, "out of memory");
    memcpy(s, o.s, o.len);
    s[o.len] = 0;
    free(*out);
    *out = s;
    return 0;
}

static int get_u32(mp_cur *c, const mp_obj *key, uint32_t *out) {
    mp_obj o;
    if (mp_next(c, &o))
        return -1;
    if (o.type != MP_UINT || o.u > UINT32_MAX)
        return mp_fail(c, "%.*s is not an unsigned 32-bit integer", (int)key->len,
                       (const char *)key->s);
    *out = (uint32_t)o.u;
    return 0;
}

static int get_bool(mp_cur *c, const mp_obj *key, int *out) {
    mp_obj o;
    if (mp_next(c, &o))
        return -1;
    if (o.type != MP_BOOL && o.type != MP_UINT)
        return mp_fail(c, "%.*s is not a boolean", (int)key->len, (const char *)key->s);
    *out = o.u != 0;
    return 0;
}

/* Expect a map or array header. */
static int get_container(mp_cur *c, int type, const char *what, uint64_t *n) {
    mp_obj o;
    if (mp_next(c, &o))
        return -1;
    if (o.type != type)
        return mp_fail(c, "%s is not a%s", what, type == MP_MAP ? " map" : "n array");
    *n = o.u;
    return 0;
}

/* ---- value kinds ----------------------------------------------------------------------------- */

static const struct {
    const char *name;
    gfx_arg_kind kind;
} kinds[] = {
    {"by_value", GFX_ARG_BY_VALUE},
    {"global_buffer", GFX_ARG_GLOBAL_BUFFER},
    {"dynamic_shared_pointer", GFX_ARG_DYNAMIC_SHARED_POINTER},
    {"sampler", GFX_ARG_SAMPLER},
    {"image", GFX_ARG_IMAGE},
    {"pipe", GFX_ARG_PIPE},
    {"queue", GFX_ARG_QUEUE},
    {"hidden_global_offset_x", GFX_ARG_HIDDEN_GLOBAL_OFFSET_X},
    {"hidden_global_offset_y", GFX_ARG_HIDDEN_GLOBAL_OFFSET_Y},
    {"hidden_global_offset_z", GFX_ARG_HIDDEN_GLOBAL_OFFSET_Z},
    {"hidden_none", GFX_ARG_HIDDEN_NONE},
    {"hidden_printf_buffer", GFX_ARG_HIDDEN_PRINTF_BUFFER},
    {"hidden_hostcall_buffer", GFX_ARG_HIDDEN_HOSTCALL_BUFFER},
    {"hidden_default_queue", GFX_ARG_HIDDEN_DEFAULT_QUEUE},
    {"hidden_completion_action", GFX_ARG_HIDDEN_COMPLETION_ACTION},
    {"hidden_multigrid_sync_arg", GFX_ARG_HIDDEN_MULTIGRID_SYNC_ARG},
    {"hidden_block_count_x", GFX_ARG_HIDDEN_BLOCK_COUNT_X},
    {"hidden_block_count_y", GFX_ARG_HIDDEN_BLOCK_COUNT_Y},
    {"hidden_block_count_z", GFX_ARG_HIDDEN_BLOCK_COUNT_Z},
    {"hidden_group_size_x", GFX_ARG_HIDDEN_GROUP_SIZE_X},
    {"hidden_group_size_y", GFX_ARG_HIDDEN_GROUP_SIZE_Y},
    {"hidden_group_size_z", GFX_ARG_HIDDEN_GROUP_SIZE_Z},
    {"hidden_remainder_x", GFX_ARG_HIDDEN_REMAINDER_X},
    {"hidden_remainder_y", GFX_ARG_HIDDEN_REMAINDER_Y},
    {"hidden_remainder_z", GFX_ARG_HIDDEN_REMAINDER_Z},
    {"hidden_grid_dims", GFX_ARG_HIDDEN_GRID_DIMS},
    {"hidden_heap_v1", GFX_ARG_HIDDEN_HEAP_V1},
    {"hidden_dynamic_lds_size", GFX_ARG_HIDDEN_DYNAMIC_LDS_SIZE},
    {"hidden_private_base", GFX_ARG_HIDDEN_PRIVATE_BASE},
    {"hidden_shared_base", GFX_ARG_HIDDEN_SHARED_BASE},
    {"hidden_queue_ptr", GFX_ARG_HIDDEN_QUEUE_PTR},
};

gfx_arg_kind ld_arg_kind(const char *value_kind) {
    if (!value_kind)
        return GFX_ARG_UNKNOWN;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, value_kind) == 0)
            return kinds[i].kind;
    return GFX_ARG_UNKNOWN;
}

/* ---- the document ---------------------------------------------------------------------------- */

static void free_arg(ld_arg *a) {
    free(a->name);
    free(a->type_name);
    free(a->value_kind);
    free(a->address_space);
    free(a->access);
}

static void free_kernel(ld_kmeta *k) {
    free(k->name);
    free(k->symbol);
    for (uint32_t i = 0; i < k->nargs; i++)
        free_arg(&k->args[i]);
    free(k->args);
}

static int parse_arg(mp_cur *c, ld_arg *a, int depth) {
    uint64_t n = 0;
    if (get_container(c, MP_MAP, "an argument", &n))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        mp_obj k;
        if (mp_next(c, &k))
            return -1;
        int r;
        if (key_is(&k, ".name"))
            r = get_str(c, &k, &a->name);
        else if (key_is(&k, ".type_name"))
            r = get_str(c, &k, &a->type_name);
        else if (key_is(&k, ".value_kind"))
            r = get_str(c, &k, &a->value_kind);
        else if (key_is(&k, ".address_space"))
            r = get_str(c, &k, &a->address_space);
        else if (key_is(&k, ".offset"))
            r = get_u32(c, &k, &a->offset);
        else if (key_is(&k, ".size"))
            r = get_u32(c, &k, &a->size);
        else if (key_is(&k, ".pointee_align"))
            r = get_u32(c, &k, &a->pointee_align);
        else if (key_is(&k, ".is_const"))
            r = get_bool(c, &k, &a->is_const);
        else if (key_is(&k, ".actual_access") || (key_is(&k, ".access") && !a->access)) {
            /* .actual_access (what the compiler saw the kernel do) wins over the source's
             * declared .access */
            r = get_str(c, &k, &a->access);
        } else
            r = mp_skip_body(c, &k, depth) || mp_skip(c, depth);
        if (r)
            return -1;
    }
    a->kind = ld_arg_kind(a->value_kind);
    return 0;
}

static int parse_args(mp_cur *c, ld_kmeta *km, int depth) {
    uint64_t n = 0;
    if (get_container(c, MP_ARRAY, ".args", &n))
        return -1;
    for (uint32_t i = 0; i < km->nargs; i++)
        free_arg(&km->args[i]);
    free(km->args);
    km->args = NULL;
    km->nargs = 0;
    if (n == 0)
        return 0;
    km->args = calloc(n, sizeof *km->args); /* n <= bytes left: bounded by the note's size */
    if (!km->args)
        return mp_fail(c, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        km->nargs++;
        if (parse_arg(c, &km->args[i], depth + 1))
            return -1;
    }
    return 0;
}

static int parse_kernel(mp_cur *c, ld_kmeta *km, int depth) {
    uint64_t n = 0;
    if (get_container(c, MP_MAP, "a kernel", &n))
        return -1;
    static const struct {
        const char *key;
        size_t off;
    } u32s[] = {
        {".kernarg_segment_size", offsetof(ld_kmeta, kernarg_segment_size)},
        {".kernarg_segment_align", offsetof(ld_kmeta, kernarg_segment_align)},
        {".group_segment_fixed_size", offsetof(ld_kmeta, group_segment_fixed_size)},
        {".private_segment_fixed_size", offsetof(ld_kmeta, private_segment_fixed_size)},
        {".sgpr_count", offsetof(ld_kmeta, sgpr_count)},
        {".vgpr_count", offsetof(ld_kmeta, vgpr_count)},
        {".agpr_count", offsetof(ld_kmeta, agpr_count)},
        {".wavefront_size", offsetof(ld_kmeta, wavefront_size)},
        {".max_flat_workgroup_size", offsetof(ld_kmeta, max_flat_workgroup_size)},
    };
    for (uint64_t i = 0; i < n; i++) {
        mp_obj k;
        if (mp_next(c, &k))
            return -1;
        int r = 1;
        for (size_t j = 0; j < sizeof u32s / sizeof u32s[0] && r == 1; j++)
            if (key_is(&k, u32s[j].key))
                r = get_u32(c, &k, (uint32_t *)((char *)km + u32s[j].off));
        if (r != 1) {
            /* handled */
        } else if (key_is(&k, ".name")) {
            r = get_str(c, &k, &km->name);
        } else if (key_is(&k, ".symbol")) {
            r = get_str(c, &k, &km->symbol);
        } else if (key_is(&k, ".args")) {
            r = parse_args(c, km, depth + 1);
        } else if (key_is(&k, ".uses_dynamic_stack")) {
            r = get_bool(c, &k, &km->uses_dynamic_stack);
        } else {
            r = mp_skip_body(c, &k, depth) || mp_skip(c, depth);
        }
        if (r)
            return -1;
    }
    return 0;
}

static int parse_root(mp_cur *c, ld_meta *m) {
    uint64_t n = 0;
    if (get_container(c, MP_MAP, "the metadata root", &n))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        mp_obj k;
        if (mp_next(c, &k))
            return -1;
        if (key_is(&k, "amdhsa.kernels")) {
            uint64_t nk = 0;
            if (get_container(c, MP_ARRAY, "amdhsa.kernels", &nk))
                return -1;
            for (size_t j = 0; j < m->nkernels; j++)
                free_kernel(&m->kernels[j]);
            free(m->kernels);
            m->nkernels = 0;
            m->kernels = calloc(nk ? nk : 1, sizeof *m->kernels);
            if (!m->kernels)
                return mp_fail(c, "out of memory");
            for (uint64_t j = 0; j < nk; j++) {
                m->nkernels++;
                if (parse_kernel(c, &m->kernels[j], 2))
                    return -1;
            }
        } else if (key_is(&k, "amdhsa.target")) {
            if (get_str(c, &k, &m->target))
                return -1;
        } else if (key_is(&k, "amdhsa.version")) {
            uint64_t nv = 0;
            if (get_container(c, MP_ARRAY, "amdhsa.version", &nv))
                return -1;
            for (uint64_t j = 0; j < nv; j++) {
                uint32_t v;
                if (get_u32(c, &k, &v))
                    return -1;
                if (j < 2)
                    m->version[j] = v;
            }
        } else if (mp_skip_body(c, &k, 1) || mp_skip(c, 1)) {
            return -1;
        }
    }
    return 0;
}

void ld_meta_free(ld_meta *m) {
    if (!m)
        return;
    for (size_t i = 0; i < m->nkernels; i++)
        free_kernel(&m->kernels[i]);
    free(m->kernels);
    free(m->target);
    memset(m, 0, sizeof *m);
}

gfx_result ld_meta_parse(const uint8_t *data, size_t size, ld_meta *out, char *err, size_t errsz) {
    mp_cur c = {data, data ? size : 0, 0, err, errsz, 0};
    memset(out, 0, sizeof *out);
    if (err && errsz)
        err[0] = 0;
    if (parse_root(&c, out) == 0)
        return GFX_OK;
    ld_meta_free(out);
    return GFX_ERR_FORMAT;
}

const ld_kmeta *ld_meta_find(const ld_meta *m, const char *name) {
    size_t len = strlen(name);
    for (size_t i = 0; i < m->nkernels; i++) {
        const char *s = m->kernels[i].symbol;
        if (s && strncmp(s, name, len) == 0 && strcmp(s + len, ".kd") == 0)
            return &m->kernels[i];
    }
    for (size_t i = 0; i < m->nkernels; i++)
        if (m->kernels[i].name && strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

/* ---- kernel descriptor ----------------------------------------------------------------------- */

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned bits(uint32_t v, unsigned hi, unsigned lo) {
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

void ld_kd_decode(const uint8_t kd[LD_KD_SIZE], ld_kd *k) {
    memset(k, 0, sizeof *k);
    k->group_segment_fixed_size = le32(kd + 0);
    k->private_segment_fixed_size = le32(kd + 4);
    k->kernarg_size = le32(kd + 8);
    k->entry_offset = (int64_t)((uint64_t)le32(kd + 16) | (uint64_t)le32(kd + 20) << 32);
    k->rsrc3 = le32(kd + 44);
    k->rsrc1 = le32(kd + 48);
    k->rsrc2 = le32(kd + 52);
    k->code_properties = (uint16_t)(kd[56] | kd[57] << 8);
    k->kernarg_preload = (uint16_t)(kd[58] | kd[59] << 8);

    uint32_t r1 = k->rsrc1, r2 = k->rsrc2, r3 = k->rsrc3, cp = k->code_properties;
    k->vgpr_granules = (uint8_t)bits(r1, 5, 0);
    k->sgpr_granules = (uint8_t)bits(r1, 9, 6);
    k->float_round_32 = (uint8_t)bits(r1, 13, 12);
    k->float_round_16_64 = (uint8_t)bits(r1, 15, 14);
    k->float_denorm_32 = (uint8_t)bits(r1, 17, 16);
    k->float_denorm_16_64 = (uint8_t)bits(r1, 19, 18);
    k->dx10_clamp = (uint8_t)bits(r1, 21, 21);
    k->ieee_mode = (uint8_t)bits(r1, 23, 23);
    k->fp16_ovfl = (uint8_t)bits(r1, 26, 26);

    k->enable_private_segment = (uint8_t)bits(r2, 0, 0);
    k->user_sgpr_count = (uint8_t)bits(r2, 5, 1);
    k->enable_wgid_x = (uint8_t)bits(r2, 7, 7);
    k->enable_wgid_y = (uint8_t)bits(r2, 8, 8);
    k->enable_wgid_z = (uint8_t)bits(r2, 9, 9);
    k->enable_wg_info = (uint8_t)bits(r2, 10, 10);
    k->enable_vgpr_workitem_id = (uint8_t)bits(r2, 12, 11);

    k->accum_offset = (uint16_t)((bits(r3, 5, 0) + 1) * 4);
    k->tg_split = (uint8_t)bits(r3, 16, 16);

    k->sgpr_private_segment_buffer = (uint8_t)bits(cp, 0, 0);
    k->sgpr_dispatch_ptr = (uint8_t)bits(cp, 1, 1);
    k->sgpr_queue_ptr = (uint8_t)bits(cp, 2, 2);
    k->sgpr_kernarg_ptr = (uint8_t)bits(cp, 3, 3);
    k->sgpr_dispatch_id = (uint8_t)bits(cp, 4, 4);
    k->sgpr_flat_scratch_init = (uint8_t)bits(cp, 5, 5);
    k->sgpr_private_segment_size = (uint8_t)bits(cp, 6, 6);
    k->wavefront_size32 = (uint8_t)bits(cp, 10, 10);
    k->uses_dynamic_stack = (uint8_t)bits(cp, 11, 11);

    k->preload_length = (uint8_t)bits(k->kernarg_preload, 6, 0);
    k->preload_offset = (uint16_t)bits(k->kernarg_preload, 15, 7);
}
