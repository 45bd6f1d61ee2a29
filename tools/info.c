/* info.c - `gfxemu info FILE.co`: what a code object's kernels need from the GPU (arguments,
 * registers, LDS, scratch, workgroup limits) and the occupancy that allows on each target.
 *
 * The occupancy rules are the CDNA3/CDNA4 ones LLVM's AMDGPU backend uses for its own occupancy
 * estimates (AMDGPUBaseInfo "IsaInfo", "AMDGPU Usage" for the descriptor fields), facts only:
 *   - a CU has 4 SIMDs; a SIMD holds at most 8 waves (gfx90a and later);
 *   - each SIMD has 512 VGPRs per lane, shared by ArchVGPRs and AccVGPRs (AGPRs): a wave using
 *     AGPRs needs ACCUM_OFFSET (ArchVGPRs rounded up to 4) + AGPRs, allocated in granules of 8;
 *   - SGPRs (800 per SIMD on gfx9) allow 8 waves up to 100 SGPRs per wave, 7 beyond;
 *   - LDS per CU: 160 KiB on gfx950, 64 KiB on gfx942, allocated per workgroup in granules of
 *     1280 bytes (gfx950) or 512 bytes (gfx942), the COMPUTE_PGM_RSRC2.LDS_SIZE units;
 *   - a CU has 16 workgroup barriers: multi-wave workgroups are limited to 16 per CU, single-wave
 *     ones (which need no barrier) only by wave slots.
 * A workgroup's waves may sit on any of the CU's SIMDs, so a resource that allows W waves per SIMD
 * allows floor(4 * W / waves_per_workgroup) workgroups per CU.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gfxemu.h"

#define SIMDS_PER_CU 4u
#define MAX_WAVES_PER_SIMD 8u
#define VGPRS_PER_SIMD_LANE 512u
#define VGPR_ALLOC_GRANULE 8u
#define SGPRS_FOR_8_WAVES 100u /* more than this: 7 waves per SIMD */
#define BARRIERS_PER_CU 16u
#define WAVE_SIZE 64u

static uint32_t round_up(uint32_t v, uint32_t g) { return (v + g - 1) / g * g; }

static uint32_t lds_per_cu(gfx_arch t) { return t == GFX_ARCH_GFX950 ? 160u * 1024 : 64u * 1024; }
static uint32_t lds_granule(gfx_arch t) { return t == GFX_ARCH_GFX950 ? 320u * 4 : 128u * 4; }

/* Registers from the metadata when it has them, else from COMPUTE_PGM_RSRC1's granulated
 * counts (VGPRs in granules of 8 on gfx90a+, SGPRs in granules of 8 as LLVM encodes them).  On
 * gfx90a+ both already count the whole unified file: .vgpr_count is ACCUM_OFFSET + AGPRs when
 * the kernel uses AGPRs (e.g. 21 ArchVGPRs and 41 AGPRs give 24 + 41 = 65). */
static void kernel_regs(const gfx_kernel_info *ki, uint32_t *vgprs, uint32_t *agprs,
                        uint32_t *sgprs) {
    if (ki->has_metadata && (ki->vgpr_count || ki->sgpr_count)) {
        *vgprs = ki->vgpr_count;
        *agprs = ki->agpr_count;
        *sgprs = ki->sgpr_count;
        return;
    }
    *vgprs = ((ki->rsrc1 & 0x3f) + 1) * VGPR_ALLOC_GRANULE;
    *agprs = 0;
    *sgprs = ((ki->rsrc1 >> 6 & 0xf) + 1) * 8;
}

void cli_occupancy_compute(const gfx_kernel_info *ki, gfx_arch target, uint32_t workgroup_size,
                           uint32_t extra_lds, cli_occupancy *o) {
    memset(o, 0, sizeof *o);
    o->target = target;
    if (!workgroup_size)
        workgroup_size = ki->max_flat_workgroup_size ? ki->max_flat_workgroup_size : 256;
    o->workgroup_size = workgroup_size;
    uint32_t n = (workgroup_size + WAVE_SIZE - 1) / WAVE_SIZE;
    o->waves_per_workgroup = n;
    o->max_waves_per_cu = SIMDS_PER_CU * MAX_WAVES_PER_SIMD;

    uint32_t vgprs, agprs, sgprs;
    kernel_regs(ki, &vgprs, &agprs, &sgprs);
    (void)agprs; /* already in the count: see kernel_regs() */
    o->unified_vgprs = vgprs;
    o->vgprs_alloc = round_up(o->unified_vgprs ? o->unified_vgprs : 1, VGPR_ALLOC_GRANULE);
    o->sgprs = sgprs;
    uint32_t lds = ki->group_segment_fixed_size + extra_lds;
    o->lds_alloc = lds ? round_up(lds, lds_granule(target)) : 0;
    o->lds_per_cu = lds_per_cu(target);

    uint32_t simd_waves_v = VGPRS_PER_SIMD_LANE / o->vgprs_alloc;
    if (simd_waves_v > MAX_WAVES_PER_SIMD)
        simd_waves_v = MAX_WAVES_PER_SIMD;
    uint32_t simd_waves_s = sgprs > SGPRS_FOR_8_WAVES ? MAX_WAVES_PER_SIMD - 1 : MAX_WAVES_PER_SIMD;
    o->wg_by_wave_slots = SIMDS_PER_CU * MAX_WAVES_PER_SIMD / n;
    o->wg_by_vgprs = SIMDS_PER_CU * simd_waves_v / n;
    o->wg_by_sgprs = SIMDS_PER_CU * simd_waves_s / n;
    o->wg_by_lds = o->lds_alloc ? o->lds_per_cu / o->lds_alloc : UINT32_MAX;
    o->wg_by_barriers = n > 1 ? BARRIERS_PER_CU : UINT32_MAX;

    /* In order of precedence when several limits are equal: the hardware wave slots first, then
     * what the kernel's resources add. */
    struct {
        uint32_t v;
        const char *name;
    } lim[] = {{o->wg_by_wave_slots, "wave slots"},
               {o->wg_by_barriers, "barriers"},
               {o->wg_by_vgprs, "VGPRs"},
               {o->wg_by_sgprs, "SGPRs"},
               {o->wg_by_lds, "LDS"}};
    uint32_t best = UINT32_MAX;
    o->limiter = "wave slots";
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
        if (lim[i].v < best) {
            best = lim[i].v;
            o->limiter = lim[i].name;
        }
    if (workgroup_size > 1024 || o->unified_vgprs > VGPRS_PER_SIMD_LANE ||
        o->lds_alloc > o->lds_per_cu)
        best = 0;
    if (best == 0 && workgroup_size > 1024)
        o->limiter = "too large";
    o->workgroups_per_cu = best;
    o->waves_per_cu = best * n;
}

/* ---- output -------------------------------------------------------------------------------- */

const char info_usage[] =
    "usage: gfxemu info FILE.co [--json] [--block X[,Y[,Z]]] [--dynamic-lds BYTES]\n"
    "\n"
    "Describe the kernels of an AMDGPU code object: arguments (name, kind, size, offset, type),\n"
    "VGPR/AGPR/SGPR counts, LDS, scratch per work-item, wavefront size, workgroup size limit,\n"
    "and the occupancy (workgroups and waves per CU) each target allows, with what limits it.\n"
    "  --json             one JSON object on stdout instead of text\n"
    "  --block X[,Y,Z]    workgroup size for the occupancy (default: the kernel's maximum flat\n"
    "                     workgroup size from the metadata)\n"
    "  --dynamic-lds N    dynamic LDS bytes per workgroup added to the static size\n"
    "Exit status: 0 success, 1 the file could not be read, 2 usage error.\n";

static void json_str(FILE *f, const char *s) {
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static const gfx_arch targets[] = {GFX_ARCH_GFX950, GFX_ARCH_GFX942};

static void print_limit(FILE *f, const char *name, uint32_t v, int json, int *first) {
    if (json) {
        fprintf(f, "%s\"%s\": ", *first ? "" : ", ", name);
        if (v == UINT32_MAX)
            fputs("null", f);
        else
            fprintf(f, "%u", v);
    } else if (v != UINT32_MAX) {
        fprintf(f, "%s%s %u", *first ? "" : ", ", name, v);
    }
    if (json || v != UINT32_MAX)
        *first = 0;
}

static void print_occupancy(FILE *f, const cli_occupancy *o, int json) {
    int first = 1;
    if (json) {
        fprintf(f,
                "{\"target\": \"%s\", \"workgroup_size\": %u, \"waves_per_workgroup\": %u, "
                "\"vgprs_allocated\": %u, \"lds_allocated\": %u, \"lds_per_cu\": %u, "
                "\"workgroups_per_cu\": %u, \"waves_per_cu\": %u, \"max_waves_per_cu\": %u, "
                "\"occupancy\": %.4f, \"limited_by\": \"%s\", \"workgroups_per_cu_by\": {",
                gfx_arch_name(o->target), o->workgroup_size, o->waves_per_workgroup, o->vgprs_alloc,
                o->lds_alloc, o->lds_per_cu, o->workgroups_per_cu, o->waves_per_cu,
                o->max_waves_per_cu, (double)o->waves_per_cu / o->max_waves_per_cu, o->limiter);
    } else {
        fprintf(f,
                "    %s: %u workgroup%s (%u wave%s of %u) per CU, %.0f%% occupancy, limited by "
                "%s\n      workgroups per CU allowed by: ",
                gfx_arch_name(o->target), o->workgroups_per_cu,
                o->workgroups_per_cu == 1 ? "" : "s", o->waves_per_cu,
                o->waves_per_cu == 1 ? "" : "s", o->max_waves_per_cu,
                100.0 * o->waves_per_cu / o->max_waves_per_cu, o->limiter);
    }
    print_limit(f, "wave_slots", o->wg_by_wave_slots, json, &first);
    print_limit(f, "barriers", o->wg_by_barriers, json, &first);
    print_limit(f, "vgprs", o->wg_by_vgprs, json, &first);
    print_limit(f, "sgprs", o->wg_by_sgprs, json, &first);
    print_limit(f, "lds", o->wg_by_lds, json, &first);
    fputs(json ? "}}" : "\n", f);
}

static void print_kernel(FILE *f, const gfx_kernel *k, gfx_arch arch, uint32_t wg_size,
                         uint32_t extra_lds, int json) {
    gfx_kernel_info ki;
    gfx_kernel_get_info(k, &ki);
    uint32_t vgprs, agprs, sgprs;
    kernel_regs(&ki, &vgprs, &agprs, &sgprs);
    if (json) {
        fputs("{\"name\": ", f);
        json_str(f, ki.name);
        fprintf(f,
                ", \"has_metadata\": %s, \"vgpr_count\": %u, \"agpr_count\": %u, "
                "\"sgpr_count\": %u, \"accum_offset\": %u, \"lds_bytes\": %u, "
                "\"scratch_per_work_item\": %u, \"dynamic_stack\": %s, \"wavefront_size\": %u, "
                "\"max_flat_workgroup_size\": %u, \"kernarg_segment_size\": %u, "
                "\"entry\": %llu, \"args\": [",
                ki.has_metadata ? "true" : "false", vgprs, agprs, sgprs, ki.accum_offset,
                ki.group_segment_fixed_size, ki.private_segment_fixed_size,
                ki.uses_dynamic_stack ? "true" : "false",
                ki.wavefront_size ? ki.wavefront_size : WAVE_SIZE, ki.max_flat_workgroup_size,
                ki.has_metadata ? ki.kernarg_segment_size : ki.kernarg_size,
                (unsigned long long)ki.entry);
        for (size_t i = 0; i < ki.nargs; i++) {
            gfx_arg_info ai;
            gfx_kernel_arg(k, i, &ai);
            fprintf(f, "%s{\"index\": %zu, \"name\": ", i ? ", " : "", i);
            json_str(f, ai.name);
            fputs(", \"kind\": ", f);
            json_str(f, ai.value_kind);
            fprintf(f, ", \"size\": %u, \"offset\": %u, \"type_name\": ", ai.size, ai.offset);
            json_str(f, ai.type_name);
            fputs(", \"address_space\": ", f);
            json_str(f, ai.address_space);
            fprintf(f, ", \"hidden\": %s}", ai.hidden ? "true" : "false");
        }
        fputs("], \"occupancy\": [", f);
    } else {
        fprintf(f, "\nkernel %s (entry 0x%llx)\n", ki.name, (unsigned long long)ki.entry);
        if (!ki.has_metadata) {
            fputs("  no metadata: arguments unknown, registers from the kernel descriptor\n", f);
        } else {
            size_t hidden = ki.nargs - ki.nargs_explicit;
            fprintf(f, "  arguments: %zu (+%zu hidden), kernarg segment %u bytes\n",
                    ki.nargs_explicit, hidden, ki.kernarg_segment_size);
            if (ki.nargs_explicit)
                fprintf(f, "    %-3s %6s %4s  %-16s %-16s %s\n", "#", "offset", "size", "kind",
                        "type", "name");
            for (size_t i = 0; i < ki.nargs_explicit; i++) {
                gfx_arg_info ai;
                gfx_kernel_arg(k, i, &ai);
                fprintf(f, "    %-3zu %6u %4u  %-16s %-16s %s\n", i, ai.offset, ai.size,
                        ai.value_kind ? ai.value_kind : "?", ai.type_name ? ai.type_name : "-",
                        ai.name ? ai.name : "-");
            }
        }
        fprintf(f, "  registers: %u VGPRs", vgprs);
        if (agprs)
            fprintf(f, " in the unified file (%u ArchVGPRs up to ACCUM_OFFSET, %u AGPRs)",
                    ki.accum_offset, agprs);
        else
            fputs(", no AGPRs", f);
        fprintf(f, ", %u SGPRs per wave\n", sgprs);
        fprintf(f, "  LDS: %u bytes per workgroup; scratch: %u bytes per work-item%s\n",
                ki.group_segment_fixed_size, ki.private_segment_fixed_size,
                ki.uses_dynamic_stack ? " (plus a dynamic stack)" : "");
        fprintf(f, "  wavefront size %u; workgroup size at most %u work-items\n",
                ki.wavefront_size ? ki.wavefront_size : WAVE_SIZE, ki.max_flat_workgroup_size);
        cli_occupancy o0;
        cli_occupancy_compute(&ki, arch, wg_size, extra_lds, &o0);
        fprintf(f, "  occupancy with %u work-items (%u wave%s) per workgroup:\n", o0.workgroup_size,
                o0.waves_per_workgroup, o0.waves_per_workgroup == 1 ? "" : "s");
    }
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        /* the code object's own target first */
        gfx_arch target = t == 0 ? arch : (arch == targets[0] ? targets[1] : targets[0]);
        cli_occupancy o;
        cli_occupancy_compute(&ki, target, wg_size, extra_lds, &o);
        if (json && t)
            fputs(", ", f);
        print_occupancy(f, &o, json);
    }
    if (json)
        fputs("]}", f);
}

static int parse_pos(const char *s, uint64_t max, uint64_t *out) {
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || v > max)
        return -1;
    *out = v;
    return 0;
}

int cmd_info(int argc, char **argv) {
    const char *path = NULL;
    int json = 0;
    uint32_t wg_size = 0;
    uint64_t extra_lds = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(info_usage, stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--block") == 0 || strcmp(a, "--dynamic-lds") == 0) {
            if (++i >= argc) {
                cli_error("info: %s needs a value (see gfxemu info --help)", a);
                return 2;
            }
            if (a[2] == 'b') {
                uint64_t total = 1, v;
                char buf[64];
                snprintf(buf, sizeof buf, "%s", argv[i]);
                int n = 0, bad = strlen(argv[i]) >= sizeof buf || argv[i][0] == 0 ||
                                 argv[i][strlen(argv[i]) - 1] == ',';
                for (char *tok = strtok(buf, ","); tok && !bad; tok = strtok(NULL, ",")) {
                    if (++n > 3 || parse_pos(tok, 1024, &v) || v == 0)
                        bad = 1;
                    else
                        total *= v;
                }
                if (bad || total > 1024) {
                    cli_error("info: --block '%s': expected X[,Y[,Z]] with at most 1024 "
                              "work-items",
                              argv[i]);
                    return 2;
                }
                wg_size = (uint32_t)total;
            } else if (parse_pos(argv[i], 1u << 20, &extra_lds)) {
                cli_error("info: --dynamic-lds '%s': expected a non-negative integer", argv[i]);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            cli_error("info: unknown option '%s' (see gfxemu info --help)", a);
            return 2;
        } else if (path) {
            cli_error("info: more than one input file ('%s' and '%s')", path, a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!path) {
        cli_error("info: missing input file (see gfxemu info --help)");
        return 2;
    }
    char err[256];
    gfx_module *m = NULL;
    if (gfx_module_load_file(path, &m, err, sizeof err) != GFX_OK) {
        cli_error("%s: %s", path, err);
        return 1;
    }
    gfx_arch arch = gfx_module_arch(m);
    size_t nk = 0;
    for (size_t i = 0; i < gfx_module_symbol_count(m); i++) {
        gfx_symbol s;
        gfx_module_symbol(m, i, &s);
        nk += s.is_kernel != 0;
    }
    /* a code object for gfx11-generic, gfx1101, ... runs as gfx1100 (src/load/elf.c) */
    const char *built = gfx_module_target(m);
    if (!built)
        built = gfx_arch_name(arch);
    if (json) {
        fputs("{\"file\": ", stdout);
        json_str(stdout, path);
        fprintf(stdout, ", \"arch\": \"%s\", \"target\": \"%s\", \"kernels\": [",
                gfx_arch_name(arch), built);
    } else if (strcmp(built, gfx_arch_name(arch)) != 0) {
        printf("%s: %s code object, run as %s, %zu kernel%s\n", path, built, gfx_arch_name(arch),
               nk, nk == 1 ? "" : "s");
    } else {
        printf("%s: %s code object, %zu kernel%s\n", path, gfx_arch_name(arch), nk,
               nk == 1 ? "" : "s");
    }
    int rc = 0, first = 1;
    for (size_t i = 0; i < gfx_module_symbol_count(m); i++) {
        gfx_symbol s;
        gfx_module_symbol(m, i, &s);
        if (!s.is_kernel)
            continue;
        const gfx_kernel *k = NULL;
        gfx_result r = gfx_module_kernel(m, s.name, &k);
        if (r != GFX_OK) {
            const char *why = gfx_module_kernel_error(m); /* e.g. RDNA: not executed yet */
            cli_error("%s: kernel '%s': %s", path, s.name, *why ? why : gfx_result_str(r));
            rc = 1;
            continue;
        }
        if (json && !first)
            fputs(", ", stdout);
        first = 0;
        print_kernel(stdout, k, arch, wg_size, (uint32_t)extra_lds, json);
    }
    if (json)
        fputs("]}\n", stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("info: error writing output");
        rc = 1;
    }
    gfx_module_free(m);
    return rc;
}
