/* timeline.c - Chrome trace-event JSON (the "JSON Array/Object Format" that chrome://tracing
 * and ui.perfetto.dev open) for a launch under a debug session.
 *
 * pid 0 holds the counters (wave-instructions by class, cumulative); workgroup i is pid i + 1
 * with one thread per wave (tids are unique across the file); each run of a wave between its
 * start, barriers and its end is a complete ("X") event; a fault is an instant ("i") event.
 * Time is the launch's wave-instruction count in the dispatcher's one-thread order, so the
 * file is the same on every run and its last counter values equal gfx_stats.
 */
#include <stdarg.h>
#include <string.h>

#include "debug/debug.h"

static const char *const class_names[XC_N] = {"salu", "valu", "vmem",   "smem",
                                              "lds",  "mfma", "branch", "other"};

static void event(gfx_debug_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void event(gfx_debug_session *s, const char *fmt, ...) {
    va_list ap;
    fputs(s->tl_first ? "\n" : ",\n", s->timeline);
    s->tl_first = 0;
    va_start(ap, fmt);
    vfprintf(s->timeline, fmt, ap);
    va_end(ap);
}

/* JSON string contents: kernel names and instruction text are plain ASCII, but be safe. */
static void json_str(char *out, size_t n, const char *in) {
    size_t j = 0;
    for (; *in && j + 7 < n; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == '"' || c == '\\')
            out[j++] = '\\', out[j++] = (char)c;
        else if (c < 0x20)
            j += (size_t)snprintf(out + j, n - j, "\\u%04x", c);
        else
            out[j++] = (char)c;
    }
    out[j] = 0;
}

static uint64_t tid_of(const gfx_debug_session *s, const wave *w) {
    return s->wg_linear * s->d->waves_per_wg + w->wave_id + 1;
}

static void counters(gfx_debug_session *s) {
    char args[512];
    size_t n = 0;
    for (int c = 0; c < XC_N; c++)
        n += (size_t)snprintf(args + n, sizeof args - n, "%s\"%s\": %llu", c ? ", " : "",
                              class_names[c], (unsigned long long)s->cls[c]);
    event(s,
          "{\"name\": \"wave-instructions\", \"ph\": \"C\", \"pid\": 0, \"ts\": %llu, "
          "\"args\": {%s}}",
          (unsigned long long)s->insts, args);
}

void dbg_timeline_begin(gfx_debug_session *s) {
    char name[256];
    json_str(name, sizeof name, s->k->sym->name);
    fprintf(s->timeline,
            "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"kernel\": \"%s\", "
            "\"clock\": \"wave-instructions\"}, \"traceEvents\": [",
            name);
    s->tl_first = 1;
    event(s,
          "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": "
          "\"%s: instructions by class\"}}",
          name);
}

void dbg_timeline_wg(gfx_debug_session *s) {
    const wave *w0 = &s->waves[0];
    unsigned long long pid = s->wg_linear + 1;
    event(s,
          "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %llu, \"args\": {\"name\": "
          "\"workgroup (%u,%u,%u)\"}}",
          pid, w0->wg_id[0], w0->wg_id[1], w0->wg_id[2]);
    event(s,
          "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %llu, \"args\": "
          "{\"sort_index\": %llu}}",
          pid, pid);
    for (unsigned i = 0; i < s->nwaves; i++)
        event(s,
              "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %llu, \"tid\": %llu, "
              "\"args\": {\"name\": \"wave %u\"}}",
              pid, (unsigned long long)tid_of(s, &s->waves[i]), i);
}

void dbg_timeline_span(gfx_debug_session *s, const wave *w, unsigned idx) {
    static const char *const ends[] = {"stopped", "barrier", "end", "fault"};
    uint64_t start = s->span_start[idx];
    s->span_start[idx] = UINT64_MAX;
    const char *end = (unsigned)w->status < 4 ? ends[w->status] : "?";
    event(s,
          "{\"name\": \"run to %s\", \"cat\": \"wave\", \"ph\": \"X\", \"pid\": %llu, "
          "\"tid\": %llu, \"ts\": %llu, \"dur\": %llu, \"args\": {\"insts\": %llu, "
          "\"end_pc\": \"0x%llx\"}}",
          end, (unsigned long long)s->wg_linear + 1, (unsigned long long)tid_of(s, w),
          (unsigned long long)start, (unsigned long long)(s->insts - start),
          (unsigned long long)(s->insts - start), (unsigned long long)dbg_wave_pc(w));
    counters(s);
}

void dbg_timeline_fault(gfx_debug_session *s, const wave *w) {
    char text[GFX_DISASM_MAX] = "", esc[2 * GFX_DISASM_MAX];
    const xinst *x = wave_inst_at(w->prog, w->fault.pc);
    if (x)
        xinst_print(x, text, sizeof text);
    json_str(esc, sizeof esc, text);
    event(s,
          "{\"name\": \"%s\", \"cat\": \"fault\", \"ph\": \"i\", \"s\": \"t\", \"pid\": "
          "%llu, \"tid\": %llu, \"ts\": %llu, \"args\": {\"pc\": \"0x%llx\", "
          "\"instruction\": \"%s\", \"addr\": \"0x%llx\"}}",
          gfx_fault_kind_name(dbg_fault_kind(w->fault.kind)), (unsigned long long)s->wg_linear + 1,
          (unsigned long long)tid_of(s, w), (unsigned long long)s->insts,
          (unsigned long long)(w->prog->code_va + w->fault.pc), esc,
          (unsigned long long)w->fault.addr);
}

void dbg_timeline_end(gfx_debug_session *s) {
    counters(s);
    fputs("\n]}\n", s->timeline);
    fclose(s->timeline);
    s->timeline = NULL;
}
