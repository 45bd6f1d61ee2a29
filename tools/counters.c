/* counters.c - `gfxemu run --counters[=LIST] [--counters-out FILE.csv|FILE.json]`: the launch's
 * performance counters (gfx_debug_counters(), src/debug/counters.c) under rocprofv3's names, as
 * a table on stderr and/or a file in the layout of rocprofv3's counter_collection.csv (one row
 * per counter) or as JSON.  Counters without a rocprofv3 equivalent are named GFXEMU_*. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct {
    const char *name;
    const char *what;
} counter_def;

/* Every counter, in output order; cli_counter_value() computes them. */
static const counter_def defs[] = {
    {"SQ_WAVES", "waves launched"},
    {"SQ_INSTS", "wave-instructions executed (each instruction once per wave)"},
    {"SQ_INSTS_VALU", "vector ALU instructions, MFMA included"},
    {"SQ_INSTS_MFMA", "MFMA/SMFMAC instructions"},
    {"SQ_INSTS_SALU", "scalar ALU instructions"},
    {"SQ_INSTS_SMEM", "scalar memory instructions"},
    {"SQ_INSTS_BRANCH", "branch and program-flow instructions"},
    {"SQ_INSTS_LDS", "LDS (DS) instructions"},
    {"SQ_INSTS_VMEM", "vector memory instructions (FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF)"},
    {"SQ_INSTS_VMEM_RD", "vector memory instructions that load"},
    {"SQ_INSTS_VMEM_WR", "vector memory instructions that store or are atomic"},
    {"SQ_LDS_BANK_CONFLICT", "cycles lost to LDS bank conflicts (CDNA bank model)"},
    {"GFXEMU_VALU_ACTIVE_LANES", "sum of EXEC bits over VALU instructions"},
    {"GFXEMU_VALU_UTILIZATION", "percent of VALU lanes active: 100 x active lanes / (64 x VALU)"},
    {"GFXEMU_LDS_BYTES", "bytes of register data moved by DS instructions"},
    {"GFXEMU_VMEM_BYTES", "bytes of register data moved by VMEM instructions"},
    {"GFXEMU_VMEM_LINES_64B", "distinct 64-byte lines per VMEM instruction, summed"},
    {"GFXEMU_VMEM_LINES_128B", "distinct 128-byte lines per VMEM instruction, summed"},
    {"GFXEMU_SCRATCH_BYTES", "bytes moved by scratch instructions"},
    {"GFXEMU_OCCUPANCY_WAVES_PER_CU", "waves of this kernel a CU holds at once (gfxemu info)"},
    {"GFXEMU_OCCUPANCY_WORKGROUPS_PER_CU", "workgroups of this kernel a CU holds at once"},
};
#define NDEFS (sizeof defs / sizeof defs[0])

static double value(size_t i, const gfx_counters *c, const cli_occupancy *o) {
    switch (i) {
    case 0: return (double)c->waves;
    case 1: return (double)c->insts;
    case 2: return (double)c->valu;
    case 3: return (double)c->mfma;
    case 4: return (double)c->salu;
    case 5: return (double)c->smem;
    case 6: return (double)c->branch;
    case 7: return (double)c->lds;
    case 8: return (double)c->vmem;
    case 9: return (double)c->vmem_rd;
    case 10: return (double)c->vmem_wr;
    case 11: return (double)c->lds_bank_conflict;
    case 12: return (double)c->valu_active_lanes;
    case 13: return c->valu ? 100.0 * (double)c->valu_active_lanes / (64.0 * (double)c->valu) : 0;
    case 14: return (double)c->lds_bytes;
    case 15: return (double)c->vmem_bytes;
    case 16: return (double)c->vmem_lines_64;
    case 17: return (double)c->vmem_lines_128;
    case 18: return (double)c->scratch_bytes;
    case 19: return (double)o->waves_per_cu;
    case 20: return (double)o->workgroups_per_cu;
    }
    return 0;
}

int cli_counters_parse(const char *list, uint32_t *mask) {
    if (!list || !*list) {
        *mask = (1u << NDEFS) - 1;
        return 0;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    *mask = 0;
    for (char *t = strtok(buf, ", "); t; t = strtok(NULL, ", ")) {
        size_t i = 0;
        while (i < NDEFS && strcmp(defs[i].name, t) != 0)
            i++;
        if (i == NDEFS) {
            fprintf(stderr, "gfxemu: error: run: --counters: unknown counter '%s' (known:", t);
            for (size_t k = 0; k < NDEFS; k++)
                fprintf(stderr, " %s", defs[k].name);
            fputs(")\n", stderr);
            return -1;
        }
        *mask |= 1u << i;
    }
    return *mask ? 0 : -1;
}

static void fmt_value(char *buf, size_t n, size_t i, double v) {
    if (i == 13)
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "%.0f", v);
}

void cli_counters_print(FILE *out, const char *kernel, uint32_t mask, const gfx_counters *c,
                        const cli_occupancy *o) {
    fprintf(out, "counters of kernel %s (%llu workgroups, %llu waves):\n", kernel,
            (unsigned long long)c->workgroups, (unsigned long long)c->waves);
    for (size_t i = 0; i < NDEFS; i++) {
        if (!(mask >> i & 1))
            continue;
        char v[64];
        fmt_value(v, sizeof v, i, value(i, c, o));
        fprintf(out, "  %-36s %14s  %s\n", defs[i].name, v, defs[i].what);
    }
}

int cli_counters_write(const char *path, const char *kernel, uint32_t mask, const gfx_counters *c,
                       const cli_occupancy *o, const gfx_kernel_info *ki, const uint32_t grid[3],
                       const uint32_t block[3]) {
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t len = strlen(path);
    int json = len >= 5 && strcmp(path + len - 5, ".json") == 0;
    uint64_t grid_items = (uint64_t)grid[0] * block[0] * grid[1] * block[1] * grid[2] * block[2];
    uint32_t wg = block[0] * block[1] * block[2];
    unsigned agprs = ki->agpr_count;
    unsigned vgprs = ki->vgpr_count > agprs ? ki->vgpr_count - agprs : ki->vgpr_count;
    if (json) {
        fprintf(f,
                "{\"kernel_name\": \"%s\", \"dispatch_id\": 1, \"grid_size\": %llu, "
                "\"workgroup_size\": %u, \"lds_block_size\": %u, \"scratch_size\": %u, "
                "\"vgpr_count\": %u, \"accum_vgpr_count\": %u, \"sgpr_count\": %u, "
                "\"counters\": {",
                kernel, (unsigned long long)grid_items, wg, ki->group_segment_fixed_size,
                ki->private_segment_fixed_size, vgprs, agprs, ki->sgpr_count);
        int first = 1;
        for (size_t i = 0; i < NDEFS; i++) {
            if (!(mask >> i & 1))
                continue;
            char v[64];
            fmt_value(v, sizeof v, i, value(i, c, o));
            fprintf(f, "%s\"%s\": %s", first ? "" : ", ", defs[i].name, v);
            first = 0;
        }
        fputs("}}\n", f);
    } else {
        /* rocprofv3's counter_collection.csv: one row per (dispatch, counter) */
        fputs("\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\","
              "\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\","
              "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\","
              "\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\","
              "\"End_Timestamp\"\n",
              f);
        for (size_t i = 0; i < NDEFS; i++) {
            if (!(mask >> i & 1))
                continue;
            char v[64];
            fmt_value(v, sizeof v, i, value(i, c, o));
            fprintf(f, "1,1,1,1,%d,%d,%llu,1,\"%s\",%u,%u,%u,%u,%u,%u,\"%s\",%s,0,0\n",
                    (int)getpid(), (int)getpid(), (unsigned long long)grid_items, kernel, wg,
                    ki->group_segment_fixed_size, ki->private_segment_fixed_size, vgprs, agprs,
                    ki->sgpr_count, defs[i].name, v);
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}
