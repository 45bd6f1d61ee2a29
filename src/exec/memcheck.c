/* memcheck.c - global accesses the byte-exact translation refuses.
 *
 * Hardware faults only on unmapped pages, so an access past the end of a buffer but inside its
 * last page works there (clang -O3 widens an aligned 12-byte uniform load to s_load_dwordx4;
 * frameworks over-fetch kernarg segments).  gfxemu does the same by default (gmem_xlate_pad(),
 * src/mem/mem.h).  In memcheck mode each such access is also recorded (read or write,
 * instruction, lane, address, size) and the kernel goes on, as compute-sanitizer's memcheck
 * reports and continues; the launch turns the records into messages (src/dispatch/launch.c).
 * A naturally aligned scalar load that starts inside a buffer is what the compiler's widening
 * produces: it is counted, not reported, so the report lists real bugs. */
#include "exec/exec.h"

#include <pthread.h>

int x_gmem_ok(wave *w, uint64_t a, uint64_t size, int write) {
    void *p =
        write ? gmem_xlate_w(w->mem, &w->cache, a, size) : gmem_xlate(w->mem, &w->cache, a, size);
    return p || gmem_xlate_pad(w->mem, a, size, write, NULL);
}

void *x_gmem_miss(wave *w, const xinst *x, uint64_t a, uint64_t size, int write, int lane) {
    void *p = gmem_xlate_pad(w->mem, a, size, write, NULL);
    xmemcheck *mc = w->mc;
    if (!p || !mc)
        return p;
    int widened =
        lane < 0 && !write && size > 4 && (a & (size - 1)) == 0 && gmem_find(w->mem, a) != NULL;
    pthread_mutex_lock(mc->lock);
    if (widened) {
        mc->widened++;
    } else {
        if (mc->n < XMC_KEEP) {
            xmc_rec *r = &mc->rec[mc->n];
            r->addr = a;
            r->pc = x ? x->pc : w->pc;
            r->size = (uint32_t)size;
            r->wg[0] = w->wg_id[0], r->wg[1] = w->wg_id[1], r->wg[2] = w->wg_id[2];
            r->wave = w->wave_id;
            r->op = x ? x->in.op : 0;
            r->write = (uint8_t)write;
            r->lane = (int8_t)lane;
        }
        mc->n++;
    }
    pthread_mutex_unlock(mc->lock);
    return p;
}
