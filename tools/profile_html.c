/* profile_html.c - `gfxemu run --profile FILE.html`: one self-contained page (inline CSS, no
 * scripts, no network resources) with the executed functions' disassembly and, per instruction,
 * executions, average active lanes, memory bytes and LDS bank-conflict cycles
 * (gfx_debug_profile_lines); the hottest lines are highlighted and linked from the summary, and
 * loops (the range from a backward branch's target to the branch) are marked beside the code. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "debug_cli.h"

static void esc(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

static int by_addr(const void *a, const void *b) {
    const gfx_symbol *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_count_desc(const void *a, const void *b) {
    const gfx_profile_line *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

typedef struct {
    uint64_t lo, hi; /* loop: [target, branch] */
} loop_range;

int cli_profile_html(const char *path, const cli_program *p, const gfx_debug_session *s,
                     const gfx_stats *st, const gfx_counters *c) {
    size_t n = gfx_debug_profile_lines(s, NULL, 0);
    gfx_profile_line *lines = calloc(n ? n : 1, sizeof *lines);
    gfx_profile_line *hot = calloc(n ? n : 1, sizeof *hot);
    size_t nsym = gfx_module_symbol_count(p->m);
    gfx_symbol *syms = calloc(nsym ? nsym : 1, sizeof *syms);
    FILE *f = fopen(path, "w");
    int rc = -1;
    if (!lines || !hot || !syms || !f)
        goto out;
    gfx_debug_profile_lines(s, lines, n);
    memcpy(hot, lines, n * sizeof *hot);
    qsort(hot, n, sizeof *hot, by_count_desc);
    size_t nhot = n < 10 ? n : 10;
    uint64_t max = n ? hot[0].count : 1;
    for (size_t i = 0; i < nsym; i++)
        gfx_module_symbol(p->m, i, &syms[i]);
    qsort(syms, nsym, sizeof *syms, by_addr);
    uint64_t text_addr;
    size_t text_size;
    const uint8_t *text = gfx_module_text(p->m, &text_addr, &text_size);
    gfx_arch arch = gfx_module_arch(p->m);
    gfx_kernel_info ki;
    gfx_kernel_get_info(p->k, &ki);

    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>gfxemu "
               "profile: ");
    esc(f, ki.name);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
          "table{border-collapse:collapse}\n"
          "td,th{padding:1px 8px;text-align:right;white-space:nowrap}\n"
          "th{background:#eee;position:sticky;top:0}\n"
          "td.code{text-align:left;font-family:monospace}\n"
          "td.loop{text-align:left;font-family:monospace;color:#0a5}\n"
          "tr.hot td.code{font-weight:bold}\n"
          "tr.hot td.count{color:#b00;font-weight:bold}\n"
          "tr.sym td{text-align:left;background:#f4f4f4;font-weight:bold}\n"
          ".note{color:#666;font-size:90%}\n"
          "</style></head><body>\n",
          f);
    fputs("<h1>Profile of kernel <code>", f);
    esc(f, ki.name);
    fprintf(f,
            "</code></h1>\n<p>%llu wave-instructions in %llu waves of %llu workgroups on %s.  "
            "Counts are per executed wave-instruction; lanes is the average number of active "
            "lanes (EXEC bits) per execution; bytes the register data moved; conflicts the LDS "
            "bank-conflict cycles (CDNA bank model, README &ldquo;Counters&rdquo;).  Loops are "
            "the ranges from a backward branch&rsquo;s target to the branch.</p>\n",
            (unsigned long long)st->wave_insts, (unsigned long long)st->waves,
            (unsigned long long)st->workgroups, gfx_arch_name(arch));
    fprintf(f,
            "<table id=\"summary\"><tr><th>SQ_INSTS_VALU</th><th>SQ_INSTS_SALU</th>"
            "<th>SQ_INSTS_LDS</th><th>SQ_INSTS_VMEM</th><th>SQ_INSTS_SMEM</th>"
            "<th>SQ_INSTS_MFMA</th><th>SQ_LDS_BANK_CONFLICT</th><th>VALU lanes active</th></tr>\n"
            "<tr><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td>"
            "<td>%llu</td><td>%.1f%%</td></tr></table>\n",
            (unsigned long long)c->valu, (unsigned long long)c->salu, (unsigned long long)c->lds,
            (unsigned long long)c->vmem, (unsigned long long)c->smem, (unsigned long long)c->mfma,
            (unsigned long long)c->lds_bank_conflict,
            c->valu ? 100.0 * (double)c->valu_active_lanes / (64.0 * (double)c->valu) : 0.0);
    fputs("<h2>Hot lines</h2>\n<ol id=\"hot\">\n", f);
    for (size_t i = 0; i < nhot; i++) {
        char t[GFX_DISASM_MAX];
        uint64_t off = hot[i].pc - text_addr;
        gfx_disasm(arch, text + off, text_size - off, t, sizeof t);
        fprintf(f, "<li><a href=\"#pc-%llx\">0x%llx</a> %llu &times; <code>",
                (unsigned long long)hot[i].pc, (unsigned long long)hot[i].pc,
                (unsigned long long)hot[i].count);
        esc(f, t);
        fputs("</code></li>\n", f);
    }
    fputs("</ol>\n<h2>Code</h2>\n<table id=\"code\">\n<tr><th>loop</th><th>pc</th><th>count</th>"
          "<th>%</th><th>lanes</th><th>bytes</th><th>conflicts</th><th>instruction</th></tr>\n",
          f);

    /* Every function (symbol range) with an executed instruction, in address order. */
    size_t li = 0;
    for (size_t si = 0; si < nsym; si++) {
        uint64_t lo = syms[si].addr, hi = text_addr + text_size;
        for (size_t k = si + 1; k < nsym; k++)
            if (syms[k].addr > lo) {
                hi = syms[k].addr;
                break;
            }
        if (lo < text_addr || lo >= text_addr + text_size ||
            (si + 1 < nsym && syms[si + 1].addr == lo))
            continue;
        while (li < n && lines[li].pc < lo)
            li++;
        if (li >= n || lines[li].pc >= hi)
            continue;
        /* loops of this range */
        loop_range loops[256];
        size_t nloops = 0;
        for (uint64_t pc = lo; pc + 4 <= hi;) {
            char t[GFX_DISASM_MAX];
            size_t sz = gfx_disasm(arch, text + (pc - text_addr), hi - pc, t, sizeof t);
            uint64_t target;
            if (gfx_branch_target(arch, text + (pc - text_addr), hi - pc, pc, &target) &&
                target <= pc && target >= lo && nloops < 256)
                loops[nloops++] = (loop_range){target, pc};
            pc += sz ? sz : 4;
        }
        fputs("<tr class=\"sym\"><td colspan=\"8\">", f);
        esc(f, syms[si].name);
        fputs("</td></tr>\n", f);
        size_t lj = li;
        for (uint64_t pc = lo; pc + 4 <= hi;) {
            char t[GFX_DISASM_MAX];
            size_t sz = gfx_disasm(arch, text + (pc - text_addr), hi - pc, t, sizeof t);
            while (lj < n && lines[lj].pc < pc)
                lj++;
            const gfx_profile_line *L = lj < n && lines[lj].pc == pc ? &lines[lj] : NULL;
            int depth = 0, head = 0, tail = 0;
            for (size_t k = 0; k < nloops; k++) {
                depth += pc >= loops[k].lo && pc <= loops[k].hi;
                head |= pc == loops[k].lo;
                tail |= pc == loops[k].hi;
            }
            int is_hot = 0; /* one of the nhot most executed */
            for (size_t k = 0; L && k < nhot && !is_hot; k++)
                is_hot = hot[k].pc == pc;
            double heat = L ? (double)L->count / (double)max : 0.0;
            fprintf(f, "<tr id=\"pc-%llx\"%s%s", (unsigned long long)pc,
                    is_hot ? " class=\"hot\"" : "", depth ? " data-loop-depth=\"" : "");
            if (depth)
                fprintf(f, "%d\"", depth);
            if (L)
                fprintf(f, " style=\"background:rgba(255,80,0,%.2f)\"", 0.08 + 0.5 * heat);
            fputs("><td class=\"loop\">", f);
            for (int d = 0; d < depth; d++)
                fputs("&#9474;", f);
            if (head)
                fputs(" loop&darr;", f);
            if (tail)
                fputs(" &uarr;back", f);
            fprintf(f, "</td><td>0x%llx</td>", (unsigned long long)pc);
            if (L)
                fprintf(f,
                        "<td class=\"count\">%llu</td><td>%.2f</td><td>%.1f</td><td>%llu</td>"
                        "<td>%llu</td>",
                        (unsigned long long)L->count,
                        st->wave_insts ? 100.0 * (double)L->count / (double)st->wave_insts : 0.0,
                        (double)L->active_lanes / (double)L->count,
                        (unsigned long long)L->mem_bytes, (unsigned long long)L->lds_bank_conflict);
            else
                fputs("<td class=\"count\">0</td><td></td><td></td><td></td><td></td>", f);
            fputs("<td class=\"code\">", f);
            esc(f, t);
            fputs("</td></tr>\n", f);
            pc += sz ? sz : 4;
        }
    }
    fputs("</table>\n<p class=\"note\">Written by gfxemu run --profile.  Counts come from "
          "executing the instructions, not from a timing model.</p>\n</body></html>\n",
          f);
    rc = ferror(f) ? -1 : 0;
out:
    if (f && fclose(f) != 0)
        rc = -1;
    free(lines);
    free(hot);
    free(syms);
    return rc;
}
