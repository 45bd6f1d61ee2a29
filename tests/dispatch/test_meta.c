/* test_meta.c - code-object metadata and kernel descriptors of real clang-22 output.
 *
 * Oracles are LLVM's tools: llvm-readelf-22 --notes prints the metadata note as YAML (argument
 * offsets, sizes, kinds, segment sizes); llvm-objdump-22 prints each kernel descriptor as
 * .amdhsa_* directives.  Fixed expectations come from the OpenCL C argument layout and the code
 * object V5 hidden-argument layout ("AMDGPU Usage").  The msgpack reader is then fed truncated,
 * corrupted and hostile inputs: each must give a result or an error, never a crash (run under
 * ASan/UBSan by `make check-sanitize`).
 */
#include "common/check.h"
#include "common/rng.h"
#include "common/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dispatch/dispatch.h"
#include "gfxemu.h"
#include "load/load.h"

/* ---- llvm-readelf's view of the metadata -------------------------------------------------- */

typedef struct {
    unsigned offset, size;
    char kind[64];
} yarg;

typedef struct {
    char name[64];
    unsigned kernarg_size, group, priv, nargs;
    yarg args[64];
} ykernel;

/* Scan the YAML llvm-readelf-22 --notes prints: per kernel (a line starting "  - "), the
 * argument keys .offset/.size/.value_kind (each argument has all three) and kernel-level keys. */
static size_t readelf_meta(const char *path, ykernel *ks, size_t max) {
    char cmd[1024], line[512];
    snprintf(cmd, sizeof cmd, "llvm-readelf-22 --notes '%s'", path);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    ykernel *k = NULL;
    int in_kernels = 0;
    unsigned off = 0, size = 0;
    while (p && fgets(line, sizeof line, p)) {
        char val[64];
        if (strncmp(line, "amdhsa.kernels:", 15) == 0) {
            in_kernels = 1;
            continue;
        }
        if (line[0] != ' ' && line[0] != '-')
            in_kernels = 0;
        if (!in_kernels)
            continue;
        if (strncmp(line, "  - ", 4) == 0 && n < max) {
            k = &ks[n++];
            memset(k, 0, sizeof *k);
        }
        if (!k)
            continue;
        char *key = strchr(line, '.');
        if (!key)
            continue;
        if (sscanf(key, ".offset: %u", &off) == 1)
            continue;
        if (sscanf(key, ".size: %u", &size) == 1)
            continue;
        if (sscanf(key, ".value_kind: %63s", val) == 1 && k->nargs < 64) {
            yarg *a = &k->args[k->nargs++];
            a->offset = off, a->size = size;
            snprintf(a->kind, sizeof a->kind, "%s", val);
            continue;
        }
        if (sscanf(key, ".name: %63s", val) == 1 && strncmp(line, "    .name", 9) == 0)
            snprintf(k->name, sizeof k->name, "%s", val);
        sscanf(key, ".kernarg_segment_size: %u", &k->kernarg_size);
        sscanf(key, ".group_segment_fixed_size: %u", &k->group);
        sscanf(key, ".private_segment_fixed_size: %u", &k->priv);
    }
    if (!p || pclose(p) != 0) {
        fprintf(stderr, "llvm-readelf-22 failed on %s\n", path);
        exit(1);
    }
    return n;
}

/* A field of kernel k's descriptor as llvm-objdump-22 prints it (".amdhsa_<field> N"); the
 * listing of the last kernel asked for is kept, so each kernel costs one objdump run. */
static long long kd_field(const char *path, const char *k, const char *field) {
    static char cached[1024], text[16384];
    char cmd[1024], key[128];
    snprintf(cmd, sizeof cmd, "llvm-objdump-22 -D -j .rodata --disassemble-symbols=%s.kd '%s'", k,
             path);
    if (strcmp(cmd, cached) != 0) {
        FILE *p = popen(cmd, "r");
        size_t n = p ? fread(text, 1, sizeof text - 1, p) : 0;
        text[n] = 0;
        if (p)
            pclose(p);
        snprintf(cached, sizeof cached, "%s", cmd);
    }
    snprintf(key, sizeof key, ".amdhsa_%s ", field);
    char *at = strstr(text, key);
    if (!at) {
        fprintf(stderr, "no %s for %s in llvm-objdump-22 output of %s\n", field, k, path);
        exit(1);
    }
    return strtoll(at + strlen(key), NULL, 0);
}

/* ---- real code objects --------------------------------------------------------------------- */

static void check_descriptor(const char *path, const struct gfx_kernel *k) {
    const char *n = k->sym->name;
    const ld_kd *d = &k->kd;
    static const struct {
        const char *field;
        size_t off;
        int width; /* bytes of the ld_kd member */
    } fields[] = {
#define F(name, member) {#name, offsetof(ld_kd, member), (int)sizeof(((ld_kd *)0)->member)}
        F(group_segment_fixed_size, group_segment_fixed_size),
        F(private_segment_fixed_size, private_segment_fixed_size),
        F(kernarg_size, kernarg_size),
        F(accum_offset, accum_offset),
        F(tg_split, tg_split),
        F(float_round_mode_32, float_round_32),
        F(float_round_mode_16_64, float_round_16_64),
        F(float_denorm_mode_32, float_denorm_32),
        F(float_denorm_mode_16_64, float_denorm_16_64),
        F(dx10_clamp, dx10_clamp),
        F(ieee_mode, ieee_mode),
        F(fp16_overflow, fp16_ovfl),
        F(enable_private_segment, enable_private_segment),
        F(system_sgpr_workgroup_id_x, enable_wgid_x),
        F(system_sgpr_workgroup_id_y, enable_wgid_y),
        F(system_sgpr_workgroup_id_z, enable_wgid_z),
        F(system_sgpr_workgroup_info, enable_wg_info),
        F(system_vgpr_workitem_id, enable_vgpr_workitem_id),
        F(user_sgpr_dispatch_ptr, sgpr_dispatch_ptr),
        F(user_sgpr_queue_ptr, sgpr_queue_ptr),
        F(user_sgpr_kernarg_segment_ptr, sgpr_kernarg_ptr),
        F(user_sgpr_dispatch_id, sgpr_dispatch_id),
        F(user_sgpr_private_segment_size, sgpr_private_segment_size),
        F(uses_dynamic_stack, uses_dynamic_stack),
#undef F
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const unsigned char *p = (const unsigned char *)d + fields[i].off;
        long long v = fields[i].width == 1   ? *(const uint8_t *)p
                      : fields[i].width == 2 ? *(const uint16_t *)p
                                             : *(const uint32_t *)p;
        long long want = kd_field(path, n, fields[i].field);
        CHECK(v == want, "%s %s: .amdhsa_%s is %lld, decoded %lld", path, n, fields[i].field, want,
              v);
    }
    /* next_free_vgpr is printed as the allocated count: (granules + 1) * 8 on gfx90a+. */
    CHECK(ld_kd_vgprs(d) == (unsigned)kd_field(path, n, "next_free_vgpr"), "%s %s: vgprs %u", path,
          n, ld_kd_vgprs(d));
    /* The entry point is the function symbol itself for clang's kernels. */
    CHECK(k->entry == k->sym->addr, "%s %s: entry 0x%llx, symbol at 0x%llx", path, n,
          (unsigned long long)k->entry, (unsigned long long)k->sym->addr);
}

static void check_object(const char *path) {
    char err[256] = "";
    gfx_module *m = NULL;
    CHECK(gfx_module_load_file(path, &m, err, sizeof err) == GFX_OK, "%s: %s", path, err);
    if (!m)
        return;
    CHECK(strcmp(gfx_module_metadata_error(m), "") == 0, "%s: %s", path,
          gfx_module_metadata_error(m));
    ykernel ys[8];
    size_t ny = readelf_meta(path, ys, 8);
    CHECK(ny == 4, "%s: readelf lists %zu kernels", path, ny);
    for (size_t i = 0; i < ny; i++) {
        const ykernel *y = &ys[i];
        const gfx_kernel *k = NULL;
        CHECK(gfx_module_kernel(m, y->name, &k) == GFX_OK && k, "%s: kernel %s", path, y->name);
        if (!k)
            continue;
        gfx_kernel_info info;
        CHECK(gfx_kernel_get_info(k, &info) == GFX_OK, "info");
        CHECK(info.has_metadata, "%s %s: no metadata", path, y->name);
        CHECK(info.nargs == y->nargs, "%s %s: %zu args, readelf %u", path, y->name, info.nargs,
              y->nargs);
        CHECK(info.kernarg_segment_size == y->kernarg_size, "%s %s: kernarg %u vs %u", path,
              y->name, info.kernarg_segment_size, y->kernarg_size);
        CHECK(info.group_segment_fixed_size == y->group, "%s %s: group %u vs %u", path, y->name,
              info.group_segment_fixed_size, y->group);
        CHECK(info.private_segment_fixed_size == y->priv, "%s %s: private %u vs %u", path, y->name,
              info.private_segment_fixed_size, y->priv);
        CHECK(info.wavefront_size == 64, "%s %s: wavefront %u", path, y->name, info.wavefront_size);
        for (size_t a = 0; a < info.nargs && a < y->nargs; a++) {
            gfx_arg_info ai;
            CHECK(gfx_kernel_arg(k, a, &ai) == GFX_OK, "arg");
            CHECK(ai.offset == y->args[a].offset && ai.size == y->args[a].size && ai.value_kind &&
                      strcmp(ai.value_kind, y->args[a].kind) == 0,
                  "%s %s arg %zu: %u/%u/%s, readelf %u/%u/%s", path, y->name, a, ai.offset, ai.size,
                  ai.value_kind ? ai.value_kind : "(null)", y->args[a].offset, y->args[a].size,
                  y->args[a].kind);
            CHECK(ai.kind != GFX_ARG_UNKNOWN, "%s %s arg %zu: kind %s unknown", path, y->name, a,
                  y->args[a].kind);
        }
        check_descriptor(path, k);
    }

    /* Fixed expectations: the OpenCL C layout of mixed's arguments (natural alignment). */
    const gfx_kernel *k = NULL;
    gfx_arg_info ai;
    if (gfx_module_kernel(m, "mixed", &k) == GFX_OK) {
        static const struct {
            unsigned off, size;
            gfx_arg_kind kind;
            const char *type;
        } want[] = {{0, 8, GFX_ARG_GLOBAL_BUFFER, "float*"}, {8, 4, GFX_ARG_BY_VALUE, "int"},
                    {12, 4, GFX_ARG_BY_VALUE, "float"},      {16, 8, GFX_ARG_BY_VALUE, "double"},
                    {24, 8, GFX_ARG_GLOBAL_BUFFER, "int*"},  {32, 8, GFX_ARG_BY_VALUE, "long"},
                    {40, 1, GFX_ARG_BY_VALUE, "char"}};
        gfx_kernel_info info;
        gfx_kernel_get_info(k, &info);
        CHECK(info.nargs == 7 && info.nargs_explicit == 7, "mixed: %zu/%zu args", info.nargs,
              info.nargs_explicit);
        for (unsigned i = 0; i < 7 && i < info.nargs; i++) {
            gfx_kernel_arg(k, i, &ai);
            CHECK(ai.offset == want[i].off && ai.size == want[i].size && ai.kind == want[i].kind &&
                      !ai.hidden && ai.type_name && strcmp(ai.type_name, want[i].type) == 0,
                  "mixed arg %u: %u %u %d %s", i, ai.offset, ai.size, ai.kind,
                  ai.type_name ? ai.type_name : "(null)");
        }
        gfx_kernel_arg(k, 0, &ai);
        CHECK(ai.address_space && strcmp(ai.address_space, "global") == 0, "mixed arg 0 space");
        CHECK(gfx_kernel_arg(k, 7, &ai) == GFX_ERR_INVALID, "arg 7 of 7");
    }
    /* Code object V5 implicit arguments start after the explicit ones (aligned to 8 here: 16)
     * with block counts (4 bytes each), group sizes and remainders (2 bytes each), global
     * offsets at +40 (8 bytes each) and grid dims at +64. */
    if (gfx_module_kernel(m, "hidden", &k) == GFX_OK) {
        static const struct {
            unsigned off, size;
            gfx_arg_kind kind;
        } want[] = {
            {16, 4, GFX_ARG_HIDDEN_BLOCK_COUNT_X},   {20, 4, GFX_ARG_HIDDEN_BLOCK_COUNT_Y},
            {24, 4, GFX_ARG_HIDDEN_BLOCK_COUNT_Z},   {28, 2, GFX_ARG_HIDDEN_GROUP_SIZE_X},
            {30, 2, GFX_ARG_HIDDEN_GROUP_SIZE_Y},    {32, 2, GFX_ARG_HIDDEN_GROUP_SIZE_Z},
            {34, 2, GFX_ARG_HIDDEN_REMAINDER_X},     {36, 2, GFX_ARG_HIDDEN_REMAINDER_Y},
            {38, 2, GFX_ARG_HIDDEN_REMAINDER_Z},     {56, 8, GFX_ARG_HIDDEN_GLOBAL_OFFSET_X},
            {64, 8, GFX_ARG_HIDDEN_GLOBAL_OFFSET_Y}, {72, 8, GFX_ARG_HIDDEN_GLOBAL_OFFSET_Z},
            {80, 2, GFX_ARG_HIDDEN_GRID_DIMS}};
        gfx_kernel_info info;
        gfx_kernel_get_info(k, &info);
        CHECK(info.nargs_explicit == 2 && info.nargs > 2 + 13, "hidden: %zu/%zu args",
              info.nargs_explicit, info.nargs);
        for (unsigned i = 0; i < 13 && 2 + i < info.nargs; i++) {
            gfx_kernel_arg(k, 2 + i, &ai);
            CHECK(ai.offset == want[i].off && ai.size == want[i].size && ai.kind == want[i].kind &&
                      ai.hidden,
                  "hidden arg %u: %u %u %d (%s)", 2 + i, ai.offset, ai.size, ai.kind,
                  ai.value_kind ? ai.value_kind : "(null)");
        }
    }
    CHECK(gfx_module_kernel(m, "nonexistent", &k) == GFX_ERR_NOT_FOUND, "missing kernel");
    CHECK(gfx_module_kernel(m, "mixed", NULL) == GFX_ERR_INVALID, "NULL out");
    gfx_module_free(m);
}

/* ---- the msgpack reader on bad input ------------------------------------------------------- */

/* The NT_AMDGPU_METADATA descriptor of a code object, read with llvm-objcopy's section dump. */
static unsigned char *note_blob(const char *co, size_t *size) {
    char out[700];
    snprintf(out, sizeof out, "%s.note", co);
    test_sh("llvm-objcopy-22 --dump-section=.note='%s' '%s' /dev/null 2>/dev/null || "
            "llvm-objcopy-22 -O binary --only-section=.note '%s' '%s'",
            out, co, co, out);
    size_t n;
    unsigned char *b = test_slurp(out, &n);
    /* namesz 7 ("AMDGPU\0", padded to 8), descsz, type 32 */
    if (n < 20 || b[0] != 7 || b[8] != 32 || memcmp(b + 12, "AMDGPU", 7) != 0) {
        fprintf(stderr, "%s: unexpected note layout\n", out);
        exit(1);
    }
    size_t desc = (size_t)b[4] | (size_t)b[5] << 8 | (size_t)b[6] << 16;
    unsigned char *d = malloc(desc);
    memcpy(d, b + 20, desc);
    free(b);
    *size = desc;
    return d;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(void) { return (unsigned)(xorshift64(&rng) >> 11); }

static void expect_error(const unsigned char *p, size_t n, const char *needle, const char *what) {
    ld_meta m;
    char err[128] = "";
    gfx_result r = ld_meta_parse(p, n, &m, err, sizeof err);
    CHECK(r == GFX_ERR_FORMAT, "%s: parsed", what);
    CHECK(err[0] && (!needle || strstr(err, needle)), "%s: message '%s'", what, err);
    if (r == GFX_OK)
        ld_meta_free(&m);
}

static void check_msgpack(const char *co) {
    size_t n;
    unsigned char *blob = note_blob(co, &n);
    ld_meta m;
    char err[128];
    CHECK(ld_meta_parse(blob, n, &m, err, sizeof err) == GFX_OK, "real blob: %s", err);
    CHECK(m.nkernels == 4 && m.version[0] == 1 && m.version[1] == 2 && m.target &&
              strstr(m.target, "amdgcn-amd-amdhsa--gfx"),
          "real blob: %zu kernels, version %u.%u", m.nkernels, m.version[0], m.version[1]);
    ld_meta_free(&m);

    /* Every truncation leaves the root map incomplete. */
    for (size_t len = 0; len < n; len++) {
        unsigned char *t = malloc(len ? len : 1); /* exact size: ASan sees any overread */
        memcpy(t, blob, len);
        char what[64];
        snprintf(what, sizeof what, "truncated to %zu", len);
        expect_error(t, len, NULL, what);
        free(t);
    }
    /* Random damage: any outcome but a crash; an error always has a message. */
    unsigned char *t = malloc(n);
    for (int it = 0; it < 20000; it++) {
        memcpy(t, blob, n);
        int flips = 1 + (int)(rnd() % 4);
        for (int f = 0; f < flips; f++)
            t[rnd() % n] = (unsigned char)rnd();
        err[0] = 0;
        gfx_result r = ld_meta_parse(t, n, &m, err, sizeof err);
        if (r == GFX_OK)
            ld_meta_free(&m);
        else
            CHECK(err[0], "error without message");
    }
    free(t);
    free(blob);

    /* Hostile shapes. */
    size_t deep_n = 100000;
    unsigned char *deep = malloc(deep_n);
    memset(deep, 0x91, deep_n);                    /* [[[[...]]]] */
    deep[0] = 0x81, deep[1] = 0xa1, deep[2] = 'x'; /* {"x": [[[...]]]} */
    expect_error(deep, deep_n, "nested", "deep nesting");
    free(deep);
    static const unsigned char huge_map[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0};
    expect_error(huge_map, sizeof huge_map, "elements", "map of 2^32 entries");
    static const unsigned char huge_arr[] = {0x81, 0xae, 'a',  'm',  'd',  'h',  's',
                                             'a',  '.',  'k',  'e',  'r',  'n',  'e',
                                             'l',  's',  0xdd, 0x7f, 0xff, 0xff, 0xff};
    expect_error(huge_arr, sizeof huge_arr, "elements", "kernel array of 2^31 entries");
    static const unsigned char bad_type[] = {0x81, 0xc1, 0xc0};
    expect_error(bad_type, sizeof bad_type, "invalid type byte 0xc1", "0xc1");
    static const unsigned char not_array[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.',
                                              'k',  'e',  'r', 'n', 'e', 'l', 's', 0x05};
    expect_error(not_array, sizeof not_array, "amdhsa.kernels is not an array", "kernels = 5");
    static const unsigned char long_str[] = {0x81, 0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'};
    expect_error(long_str, sizeof long_str, "truncated", "2 GiB string");
    expect_error(NULL, 0, "truncated", "empty");
    static const unsigned char root_array[] = {0x90};
    expect_error(root_array, sizeof root_array, "root", "root is an array");
    /* A kernel whose .offset is negative / too large / a string. */
    static const unsigned char neg[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's',  'a',  '.',
                                        'k',  'e',  'r', 'n', 'e', 'l', 's',  0x91, 0x81,
                                        0xa5, '.',  'a', 'r', 'g', 's', 0x91, 0x81, 0xa7,
                                        '.',  'o',  'f', 'f', 's', 'e', 't',  0xff};
    expect_error(neg, sizeof neg, ".offset is not an unsigned", "offset -1");
}

/* A module whose note is damaged still loads (disassembly needs no metadata); its kernels have
 * no metadata and the reason is reported. */
static void check_damaged_note(const char *co) {
    size_t n;
    unsigned char *b = test_slurp(co, &n);
    unsigned char *at = NULL;
    for (size_t i = 0; i + 8 < n; i++)
        if (memcmp(b + i, "AMDGPU\0\0", 8) == 0 && i >= 12 && b[i - 4] == 32) {
            at = b + i + 8;
            break;
        }
    CHECK(at != NULL, "no note in %s", co);
    if (!at) {
        free(b);
        return;
    }
    *at = 0xc1;
    gfx_module *m = NULL;
    char err[256];
    CHECK(gfx_module_load_mem(b, n, &m, err, sizeof err) == GFX_OK, "damaged note: %s", err);
    if (m) {
        CHECK(strstr(gfx_module_metadata_error(m), "invalid type byte"), "meta error '%s'",
              gfx_module_metadata_error(m));
        const gfx_kernel *k = NULL;
        gfx_kernel_info info;
        CHECK(gfx_module_kernel(m, "mixed", &k) == GFX_OK, "kernel without metadata");
        if (k) {
            gfx_kernel_get_info(k, &info);
            CHECK(!info.has_metadata && info.kernarg_size == 44, "info %d %u", info.has_metadata,
                  info.kernarg_size);
        }
        gfx_module_free(m);
    }
    free(b);
}

int main(void) {
    char dir[512], co[600];
    snprintf(dir, sizeof dir, "%s/test-data/dispatch", test_build_dir());
    test_sh("mkdir -p '%s'", dir);
    const char *cpus[] = {"gfx950", "gfx942"};
    for (int i = 0; i < 2; i++) {
        snprintf(co, sizeof co, "%s/kernels_%s.co", dir, cpus[i]);
        /* tests/common/kbuild.sh: built again only when out of date */
        test_sh("bash tests/common/kbuild.sh co '%s' -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa "
                "-mcpu=%s -nogpulib -O2 tests/dispatch/kernels.cl 2>/dev/null",
                co, cpus[i]);
        check_object(co);
    }
    check_msgpack(co);
    check_damaged_note(co);
    return check_summary("test_meta");
}
