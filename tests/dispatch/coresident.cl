/* coresident.cl - kernels whose workgroups wait for one another (tests/dispatch/test_coresident.c).
 * On an MI300/MI350 every workgroup of these grids is resident at once, so each wait completes. */
#define ACQ(p) __opencl_atomic_load((volatile __global atomic_uint *)(p), memory_order_acquire, memory_scope_device)
#define REL(p, v) __opencl_atomic_store((volatile __global atomic_uint *)(p), (v), memory_order_release, memory_scope_device)
#define ADD(p, v) __opencl_atomic_fetch_add((volatile __global atomic_uint *)(p), (v), memory_order_acq_rel, memory_scope_device)
#define LID() __builtin_amdgcn_workitem_id_x()
#define GID() __builtin_amdgcn_workgroup_id_x()
#define NGROUPS() (__builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x())
#include "../common/cl_barrier.h"

/* Every workgroup but the last spins (acquire loads) on a flag the last one raises. */
__kernel void flag_wait(__global uint *flag, __global uint *out) {
    uint g = GID();
    if (g == NGROUPS() - 1) {
        if (LID() == 0)
            REL(flag, 42u);
    } else {
        while (ACQ(flag) != 42u)
            ;
    }
    out[g * __builtin_amdgcn_workgroup_size_x() + LID()] = ACQ(flag) + g;
}

/* Software grid barrier (arrival counter + generation), `rounds` times: in round r every
 * workgroup writes data[g] = r * 1000 + g, waits for all, then reads its right neighbour's. */
static void grid_barrier(__global uint *bar, uint n) {
    WG_BARRIER();
    if (LID() == 0) {
        uint gen = ACQ(&bar[1]);
        if (ADD(&bar[0], 1u) == n - 1) {
            REL(&bar[0], 0u);
            REL(&bar[1], gen + 1);
        } else {
            while (ACQ(&bar[1]) == gen)
                ;
        }
    }
    WG_BARRIER();
}

__kernel void grid_sync(__global uint *bar, __global uint *data, __global uint *out, uint rounds) {
    uint g = GID(), n = NGROUPS();
    for (uint r = 0; r < rounds; r++) {
        if (LID() == 0)
            REL(&data[g], r * 1000u + g);
        grid_barrier(bar, n);
        if (LID() == 0)
            out[g * rounds + r] = ACQ(&data[(g + 1) % n]);
        grid_barrier(bar, n);
    }
}

/* Ticket lock around a plain read-modify-write of counter[0]; out[g] = the value it saw. */
__kernel void ticket_lock(__global uint *lock, __global uint *counter, __global uint *out) {
    if (LID() == 0) {
        uint my = ADD(&lock[0], 1u);
        while (ACQ(&lock[1]) != my)
            ;
        volatile __global uint *c = counter;
        uint v = *c;
        for (int i = 0; i < 50; i++) /* widen the window a racing workgroup would hit */
            __builtin_amdgcn_s_sleep(1);
        *c = v + 1;
        out[GID()] = v;
        REL(&lock[1], my + 1);
    }
}

/* Queues between workgroup pairs: odd workgroup g produces `items` values into a 4-slot ring,
 * even workgroup g - 1 consumes them.  Producers wait for space, consumers for data. */
__kernel void queue(__global uint *ring, __global uint *ctl, __global uint *out, uint items) {
    uint g = GID(), pair = g / 2;
    __global uint *r = ring + 4 * pair, *head = ctl + 2 * pair, *tail = head + 1;
    if (LID() != 0)
        return;
    for (uint i = 0; i < items; i++) {
        if (g & 1) {
            while (i - ACQ(tail) >= 4u)
                ;
            r[i % 4] = i * 3u + pair;
            REL(head, i + 1);
        } else {
            while (ACQ(head) <= i)
                ;
            out[pair * items + i] = r[i % 4];
            REL(tail, i + 1);
        }
    }
}

/* Persistent kernel: the workgroups take tasks from a counter until `ntasks` are done; task t
 * needs task t - 1's result (a chained prefix sum, as in decoupled look-back). */
__kernel void persistent(__global uint *next, __global uint *flags, __global const uint *val,
                         __global uint *prefix, uint ntasks) {
    __local uint task;
    for (;;) {
        if (LID() == 0)
            task = ADD(next, 1u);
        WG_BARRIER();
        uint t = task;
        WG_BARRIER();
        if (t >= ntasks)
            return;
        if (LID() == 0) {
            uint before = 0;
            if (t > 0) {
                while (ACQ(&flags[t - 1]) == 0)
                    ;
                before = prefix[t - 1];
            }
            prefix[t] = before + val[t];
            REL(&flags[t], 1u);
        }
    }
}

/* GWS: workgroup 0 initialises barrier resource 0 for all waves and raises a flag; then every
 * wave passes `rounds` GWS barriers, exchanging values through global memory as grid_sync.
 * Resource 1 is a semaphore: workgroup 0 fills sem_data and releases n - 1 waits at once. */
__kernel void gws_sync(__global uint *flag, __global uint *data, __global uint *out, uint rounds,
                       __global uint *sem_data, __global uint *sem_out) {
    uint g = GID(), n = NGROUPS();
    if (g == 0) {
        __builtin_amdgcn_ds_gws_init(n - 1, 0);
        REL(flag, 1u);
    } else {
        while (ACQ(flag) == 0)
            ;
    }
    for (uint r = 0; r < rounds; r++) {
        if (LID() == 0)
            REL(&data[g], r * 1000u + g);
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
        __builtin_amdgcn_ds_gws_barrier(n - 1, 0);
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
        if (LID() == 0)
            out[g * rounds + r] = ACQ(&data[(g + 1) % n]);
        __builtin_amdgcn_ds_gws_barrier(n - 1, 0);
    }
    if (g == 0) {
        if (LID() == 0)
            REL(sem_data, 77u);
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
        __builtin_amdgcn_ds_gws_sema_br(n - 1, 1);
    } else {
        __builtin_amdgcn_ds_gws_sema_p(1);
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
        if (LID() == 0)
            sem_out[g] = ACQ(sem_data) + g;
    }
}

/* Waits for a flag that nothing sets. */
__kernel void stuck(__global uint *flag, __global uint *out) {
    while (ACQ(flag) == 0)
        ;
    out[LID()] = 1;
}

/* Workgroup 0 waits for the last one: fine while both are resident. */
__kernel void wait_last(__global uint *flag, __global uint *out) {
    if (GID() == NGROUPS() - 1) {
        if (LID() == 0)
            REL(flag, 1u);
    } else {
        while (ACQ(flag) == 0)
            ;
    }
    out[GID()] = 5;
}

/* ---- racecheck: two waves exchange through LDS (block of 128) ---------------------------------- */

/* No barrier between the write and the other wave's read: RAW. */
__kernel void race_raw(__global uint *out) {
    __local uint s[128];
    uint t = LID();
    s[t] = t * 5u;
    out[t] = s[(t + 64) & 127];
}

/* The same with a barrier (and LDS fences) between: correct. */
__kernel void race_fenced(__global uint *out) {
    __local uint s[128];
    uint t = LID();
    s[t] = t * 5u;
    WG_BARRIER();
    out[t] = s[(t + 64) & 127];
}

/* Each wave reads the other's half, then overwrites its own half with no barrier: WAR. */
__kernel void race_war(__global uint *out) {
    __local uint s[128];
    uint t = LID();
    s[t] = t;
    WG_BARRIER();
    uint v = s[(t + 64) & 127];
    s[t] = v + 1;
    out[t] = v;
}

/* Both waves write the same 64 words: WAW. */
__kernel void race_waw(__global uint *out) {
    __local uint s[64];
    uint t = LID();
    s[t & 63] = t;
    WG_BARRIER();
    out[t] = s[t & 63];
}

/* LDS atomics from both waves, barrier-separated from the plain accesses: correct. */
__kernel void race_atomic(__global uint *out) {
    __local uint c;
    uint t = LID();
    if (t == 0)
        c = 0;
    WG_BARRIER();
    __opencl_atomic_fetch_add((volatile __local atomic_uint *)&c, 1u, memory_order_relaxed,
                              memory_scope_work_group);
    WG_BARRIER();
    out[t] = c;
}

/* Workgroup 1 computes forever (its registers change every iteration: not a spin), the others
 * wait for it: the instruction watchdog stops it, and must not call it merely long. */
__kernel void busy_and_wait(__global uint *flag, __global uint *out, uint n) {
    if (GID() == 1) {
        uint x = n;
        while (x != 12345u)
            x = x * 3u + 1u;
        REL(flag, x);
    } else {
        while (ACQ(flag) == 0)
            ;
    }
    out[GID()] = 1;
}
