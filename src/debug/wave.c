/* wave.c - gfx_wave: register access and snapshots for the waves of a stopped launch, and
 * single waves made from code bytes (the lockstep API: step two emulators side by side). */
#include <stdlib.h>
#include <string.h>

#include "debug/debug.h"

/* The public fault kinds number the engine's in the same order. */
_Static_assert(XF_MEMORY == (int)GFX_FAULT_MEMORY && XF_ILLEGAL == (int)GFX_FAULT_ILLEGAL &&
                   XF_UNIMPLEMENTED == (int)GFX_FAULT_UNIMPLEMENTED &&
                   XF_TRAP == (int)GFX_FAULT_TRAP && XF_WATCHDOG == (int)GFX_FAULT_WATCHDOG &&
                   XF_PC == (int)GFX_FAULT_PC && XF_LDS == (int)GFX_FAULT_LDS,
               "xfault_kind and gfx_fault_kind differ");
_Static_assert(WAVE_RUNNING == (int)GFX_WAVE_RUNNING && WAVE_BARRIER == (int)GFX_WAVE_BARRIER &&
                   WAVE_DONE == (int)GFX_WAVE_DONE && WAVE_FAULT == (int)GFX_WAVE_FAULT,
               "wave states differ");

gfx_fault_kind dbg_fault_kind(int xk) {
    return xk >= XF_MEMORY && xk <= XF_LDS ? (gfx_fault_kind)xk : GFX_FAULT_NONE;
}

uint64_t dbg_wave_pc(const wave *w) { return w->prog->code_va + w->pc; }

static int is_wave32(const wave *w) { return w->prog && w->prog->wave32; }
uint64_t dbg_wave_exec(const wave *w) {
    if (!is_wave32(w))
        return wave_exec(w);
    return w->s[ISA_SREG_EXEC_LO] | (uint64_t)w->s[XS_EXEC_HI32] << 32;
}
/* The file slot that holds SGPR encoding i for the debugger (EXEC_HI: see dbg_wave_exec). */
static unsigned sgpr_slot(const wave *w, unsigned i) {
    return i == ISA_SREG_EXEC_HI && is_wave32(w) ? XS_EXEC_HI32 : i;
}

gfx_wave_state dbg_wave_state(const wave *w) { return (gfx_wave_state)w->status; }

const char *gfx_wave_state_name(gfx_wave_state st) {
    static const char *const names[] = {"running", "at barrier", "done", "faulted"};
    return (unsigned)st < 4 ? names[st] : "unknown";
}

gfx_result gfx_wave_get(const gfx_wave *h, gfx_reg_kind kind, unsigned index, unsigned lane,
                        uint64_t *value) {
    if (!h || !value)
        return GFX_ERR_INVALID;
    const wave *w = h->w;
    switch (kind) {
    case GFX_REG_SGPR:
        if (index >= GFX_WAVE_SGPRS)
            return GFX_ERR_INVALID;
        *value = w->s[sgpr_slot(w, index)];
        return GFX_OK;
    case GFX_REG_VGPR:
    case GFX_REG_AGPR:
        if (index >= GFX_WAVE_VGPRS || lane >= LANES)
            return GFX_ERR_INVALID;
        *value = kind == GFX_REG_VGPR ? w->v[index][lane] : w->a[index][lane];
        return GFX_OK;
    case GFX_REG_EXEC: *value = dbg_wave_exec(w); return GFX_OK;
    case GFX_REG_VCC:
        *value = w->s[ISA_SREG_VCC_LO] | (uint64_t)w->s[ISA_SREG_VCC_HI] << 32;
        return GFX_OK;
    case GFX_REG_SCC: *value = w->scc; return GFX_OK;
    case GFX_REG_M0: *value = w->s[ISA_SREG_M0]; return GFX_OK;
    case GFX_REG_PC: *value = dbg_wave_pc(w); return GFX_OK;
    case GFX_REG_MODE: *value = w->mode; return GFX_OK;
    }
    return GFX_ERR_INVALID;
}

gfx_result gfx_wave_set(gfx_wave *h, gfx_reg_kind kind, unsigned index, unsigned lane,
                        uint64_t value) {
    if (!h)
        return GFX_ERR_INVALID;
    wave *w = h->w;
    switch (kind) {
    case GFX_REG_SGPR:
        if (index >= GFX_WAVE_SGPRS)
            return GFX_ERR_INVALID;
        w->s[sgpr_slot(w, index)] = (uint32_t)value;
        return GFX_OK;
    case GFX_REG_VGPR:
    case GFX_REG_AGPR:
        if (index >= GFX_WAVE_VGPRS || lane >= LANES)
            return GFX_ERR_INVALID;
        (kind == GFX_REG_VGPR ? w->v : w->a)[index][lane] = (uint32_t)value;
        return GFX_OK;
    case GFX_REG_EXEC:
        if (is_wave32(w)) { /* lanes 32-63 never run: EXEC_HI to its slot */
            w->s[ISA_SREG_EXEC_LO] = (uint32_t)value;
            w->s[XS_EXEC_HI32] = (uint32_t)(value >> 32);
        } else {
            wave_set_exec(w, value);
        }
        return GFX_OK;
    case GFX_REG_VCC:
        w->s[ISA_SREG_VCC_LO] = (uint32_t)value;
        w->s[ISA_SREG_VCC_HI] = (uint32_t)(value >> 32);
        return GFX_OK;
    case GFX_REG_SCC: w->scc = value != 0; return GFX_OK;
    case GFX_REG_M0: w->s[ISA_SREG_M0] = (uint32_t)value; return GFX_OK;
    case GFX_REG_PC:
        if (value < w->prog->code_va || value - w->prog->code_va > UINT32_MAX)
            return GFX_ERR_INVALID;
        w->pc = (uint32_t)(value - w->prog->code_va);
        return GFX_OK;
    case GFX_REG_MODE: w->mode = (uint32_t)value; return GFX_OK;
    }
    return GFX_ERR_INVALID;
}

gfx_result gfx_wave_snapshot_get(const gfx_wave *h, gfx_wave_snapshot *o) {
    if (!h || !o)
        return GFX_ERR_INVALID;
    const wave *w = h->w;
    memset(o, 0, sizeof *o);
    o->pc = dbg_wave_pc(w);
    o->state = dbg_wave_state(w);
    memcpy(o->workgroup, w->wg_id, sizeof o->workgroup);
    o->wave = w->wave_id;
    o->exec = dbg_wave_exec(w);
    o->vcc = w->s[ISA_SREG_VCC_LO] | (uint64_t)w->s[ISA_SREG_VCC_HI] << 32;
    o->scc = w->scc;
    o->m0 = w->s[ISA_SREG_M0];
    o->mode = w->mode;
    memcpy(o->sgpr, w->s, sizeof o->sgpr);
    o->sgpr[ISA_SREG_EXEC_HI] = w->s[sgpr_slot(w, ISA_SREG_EXEC_HI)];
    memcpy(o->vgpr, w->v, sizeof o->vgpr);
    memcpy(o->agpr, w->a, sizeof o->agpr);
    for (int c = 0; c < XC_N; c++)
        o->insts += w->count[c];
    if (w->status == WAVE_FAULT) {
        o->fault = dbg_fault_kind(w->fault.kind);
        o->fault_pc = w->prog->code_va + w->fault.pc;
        o->fault_addr = w->fault.addr;
        o->fault_lanes = w->fault.lanes;
        o->fault_size = w->fault.size;
        o->fault_write = w->fault.write;
    }
    return GFX_OK;
}

gfx_result gfx_wave_lds(gfx_wave *h, uint32_t off, void *buf, uint32_t size, int write) {
    if (!h || (!buf && size))
        return GFX_ERR_INVALID;
    wave *w = h->w;
    if (off > w->lds_size || size > w->lds_size - off || (size && !w->lds))
        return GFX_ERR_INVALID;
    if (!size) /* w->lds may be NULL: no memcpy from or to it */
        return GFX_OK;
    if (write)
        memcpy(w->lds + off, buf, size);
    else
        memcpy(buf, w->lds + off, size);
    return GFX_OK;
}

/* ---- lockstep waves -------------------------------------------------------------------------- */

uint64_t gfx_wave_code_bias(const gfx_wave *h) { return h && h->w ? h->w->va_bias : 0; }

gfx_result gfx_wave_create(gfx_device *dev, gfx_arch arch, const void *code, size_t size,
                           uint64_t code_va, uint32_t lds_size, gfx_wave **out) {
    if (!out)
        return GFX_ERR_INVALID;
    *out = NULL;
    if ((unsigned)arch >= GFX_ARCH_COUNT || (dev && dev->arch != arch))
        return GFX_ERR_ARCH;
    if ((!code && size) || size > UINT32_MAX)
        return GFX_ERR_INVALID;
    if (lds_size > isa_targets[arch].lds_bytes)
        return GFX_ERR_RESOURCE;
    gfx_wave *h = calloc(1, sizeof *h);
    if (!h)
        return GFX_ERR_NOMEM;
    h->owned = 1;
    h->w = aligned_alloc(64, (sizeof(wave) + 63) / 64 * 64);
    if (h->w)
        memset(h->w, 0, sizeof *h->w);
    h->code = malloc(size ? size : 1);
    h->mem = dev ? dev->mem : gmem_create();
    h->own_mem = !dev;
    if (!h->w || !h->code || !h->mem) {
        gfx_wave_free(h);
        return GFX_ERR_NOMEM;
    }
    if (size)
        memcpy(h->code, code, size);
    wave *w = h->w;
    w->lds = lds_size ? calloc(1, ((size_t)lds_size + 63) & ~(size_t)63) : NULL;
    if ((lds_size && !w->lds) ||
        xprog_build(&h->prog, (isa_arch)arch, h->code, (uint32_t)size, code_va) != 0) {
        gfx_wave_free(h);
        return GFX_ERR_NOMEM;
    }
    w->prog = &h->prog;
    w->mem = h->mem;
    w->lds_size = lds_size;
    w->status = WAVE_RUNNING;
    wave_set_exec(w, ~0ull);
    *out = h;
    return GFX_OK;
}

void gfx_wave_free(gfx_wave *h) {
    if (!h || !h->owned)
        return;
    if (h->w)
        free(h->w->lds);
    free(h->w);
    xprog_free(&h->prog);
    free(h->code);
    if (h->own_mem)
        gmem_destroy(h->mem);
    free(h);
}

gfx_result gfx_wave_step(gfx_wave *h, gfx_wave_state *state) {
    if (!h || !h->owned)
        return GFX_ERR_INVALID;
    wave *w = h->w;
    if (w->status == WAVE_BARRIER)
        w->status = WAVE_RUNNING; /* alone in its workgroup: the barrier is already complete */
    if (w->status == WAVE_RUNNING) {
        w->budget = 1;
        wave_step(w);
        if (w->status == WAVE_YIELD) /* s_sleep: a wave alone has nothing to yield to */
            w->status = WAVE_RUNNING;
        memset(&w->cache, 0, sizeof w->cache); /* buffers may change between steps */
    }
    if (state)
        *state = dbg_wave_state(w);
    return w->status == WAVE_FAULT  ? GFX_ERR_FAULT
           : w->status == WAVE_DONE ? GFX_ERR_INVALID
                                    : GFX_OK;
}
