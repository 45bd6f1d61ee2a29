/* npy.c - NumPy .npy files for `gfxemu run --arg in:x.npy / out:y.npy:...` (tools/gfxemu.c).
 *
 * Format (NumPy's "format.py" documentation, NEP 1): the magic "\x93NUMPY", a major and minor
 * version byte, the header length (uint16 little-endian in version 1.0, uint32 in 2.0 and 3.0),
 * then the header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (N,), }
 * padded with spaces and a final '\n' so that the data starts at a multiple of 64 bytes; the data
 * follows, C order.  gfxemu reads versions 1-3, writes 1.0, and handles the fixed-size numeric
 * dtypes (bool, int8..int64, uint8..uint64, float16/32/64) in little-endian byte order.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* numpy names and the descr characters they stand for */
static const struct {
    const char *name;
    char kind;
    unsigned size;
} dtypes[] = {
    {"bool", 'b', 1},   {"int8", 'i', 1},    {"uint8", 'u', 1},   {"int16", 'i', 2},
    {"uint16", 'u', 2}, {"int32", 'i', 4},   {"uint32", 'u', 4},  {"int64", 'i', 8},
    {"uint64", 'u', 8}, {"float16", 'f', 2}, {"float32", 'f', 4}, {"float64", 'f', 8},
};

const char *cli_npy_dtype_name(char kind, unsigned size) {
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (dtypes[i].kind == kind && dtypes[i].size == size)
            return dtypes[i].name;
    return "?";
}

/* "<f4", "|u1", "=i8", "f4" -> kind/size; 0 on success. */
static int parse_descr(const char *d, size_t len, char *kind, unsigned *size) {
    if (len && (*d == '<' || *d == '|' || *d == '=')) {
        d++, len--;
    } else if (len && *d == '>') {
        return -1; /* big-endian data: not what the GPU reads */
    }
    if (len < 2 || !strchr("biuf", d[0]))
        return -1;
    unsigned s = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)d[i]) || s > 100)
            return -1;
        s = s * 10 + (unsigned)(d[i] - '0');
    }
    if (strcmp(cli_npy_dtype_name(d[0], s), "?") == 0)
        return -1;
    *kind = d[0];
    *size = s;
    return 0;
}

static uint64_t npy_elems(const cli_npy *n) {
    uint64_t e = 1;
    for (unsigned i = 0; i < n->ndim; i++)
        e *= n->shape[i];
    return e;
}

/* The value of 'key' in the header dict: a pointer just past "'key':" and blanks, or NULL. */
static const char *dict_value(const char *h, const char *key) {
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(h, pat);
    if (!p) {
        snprintf(pat, sizeof pat, "\"%s\"", key);
        p = strstr(h, pat);
    }
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    if (*p++ != ':')
        return NULL;
    while (*p == ' ')
        p++;
    return p;
}

int cli_npy_parse(const unsigned char *buf, size_t size, cli_npy *out, char *err, size_t errsz) {
    memset(out, 0, sizeof *out);
    if (size < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
        snprintf(err, errsz, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    unsigned major = buf[6];
    size_t hlen, pre;
    if (major == 1) {
        hlen = buf[8] | (size_t)buf[9] << 8;
        pre = 10;
    } else if ((major == 2 || major == 3) && size >= 12) {
        hlen = buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        pre = 12;
    } else {
        snprintf(err, errsz, "unsupported .npy version %u", major);
        return -1;
    }
    if (hlen > size - pre || hlen > 65536) {
        snprintf(err, errsz, "truncated .npy header");
        return -1;
    }
    char *h = malloc(hlen + 1);
    if (!h) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    memcpy(h, buf + pre, hlen);
    h[hlen] = 0;
    int rc = -1;
    const char *d = dict_value(h, "descr"), *fo = dict_value(h, "fortran_order"),
               *sh = dict_value(h, "shape");
    if (!d || (*d != '\'' && *d != '"') || !fo || !sh || *sh != '(') {
        snprintf(err, errsz, "malformed .npy header");
        goto out;
    }
    const char *de = strchr(d + 1, *d);
    if (!de || parse_descr(d + 1, (size_t)(de - d - 1), &out->kind, &out->size)) {
        snprintf(err, errsz,
                 "unsupported .npy dtype %.*s (expected a little-endian bool, int, "
                 "uint or float)",
                 de ? (int)(de - d + 1) : 8, d);
        goto out;
    }
    for (sh++;;) {
        while (*sh == ' ' || *sh == ',')
            sh++;
        if (*sh == ')')
            break;
        char *end;
        unsigned long long v = strtoull(sh, &end, 10);
        if (end == sh || out->ndim == CLI_NPY_MAX_DIMS) {
            snprintf(err, errsz, "malformed .npy shape");
            goto out;
        }
        out->shape[out->ndim++] = v;
        sh = end;
    }
    if (strncmp(fo, "True", 4) == 0 && out->ndim > 1) {
        snprintf(err, errsz, "Fortran-order .npy arrays are not supported (save it in C order)");
        goto out;
    }
    out->data_offset = pre + hlen;
    uint64_t bytes = npy_elems(out) * out->size;
    if (bytes > size - out->data_offset) {
        snprintf(err, errsz, ".npy data is %zu bytes, its header says %llu",
                 size - out->data_offset, (unsigned long long)bytes);
        goto out;
    }
    out->nbytes = bytes;
    out->valid = 1;
    rc = 0;
out:
    free(h);
    return rc;
}

int cli_npy_parse_spec(const char *s, cli_npy *out) {
    memset(out, 0, sizeof *out);
    const char *br = strchr(s, '[');
    size_t nl = br ? (size_t)(br - s) : strlen(s);
    int found = 0;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0] && !found; i++)
        if (strlen(dtypes[i].name) == nl && strncmp(s, dtypes[i].name, nl) == 0) {
            out->kind = dtypes[i].kind;
            out->size = dtypes[i].size;
            found = 1;
        }
    if (!found && parse_descr(s, nl, &out->kind, &out->size))
        return -1;
    if (!br)
        return -1;
    const char *p = br + 1;
    for (;;) {
        char *end;
        if (!isdigit((unsigned char)*p))
            return -1;
        unsigned long long v = strtoull(p, &end, 10);
        if (out->ndim == CLI_NPY_MAX_DIMS || v > (1ull << 40))
            return -1;
        out->shape[out->ndim++] = v;
        p = end;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ']' && p[1] == 0)
            break;
        return -1;
    }
    uint64_t e = npy_elems(out);
    if (e > (1ull << 40) / out->size)
        return -1;
    out->nbytes = e * out->size;
    out->valid = 1;
    return 0;
}

size_t cli_npy_header(const cli_npy *n, char *hdr, size_t cap) {
    char dict[256];
    int len = snprintf(dict, sizeof dict, "{'descr': '%c%c%u', 'fortran_order': False, 'shape': (",
                       n->size == 1 ? '|' : '<', n->kind, n->size);
    for (unsigned i = 0; i < n->ndim; i++)
        len +=
            snprintf(dict + len, sizeof dict - (size_t)len, "%llu%s",
                     (unsigned long long)n->shape[i], n->ndim == 1 || i + 1 < n->ndim ? ", " : "");
    if (n->ndim == 1) /* a 1-tuple is "(N,)" */
        len -= 1;
    len += snprintf(dict + len, sizeof dict - (size_t)len, "), }");
    /* pad with spaces and end with '\n' so the data starts at a multiple of 64 */
    size_t total = (10 + (size_t)len + 1 + 63) / 64 * 64;
    if (total > cap)
        return 0;
    size_t hlen = total - 10;
    memcpy(hdr, "\x93NUMPY\x01\x00", 8);
    hdr[8] = (char)(hlen & 0xff);
    hdr[9] = (char)(hlen >> 8);
    memcpy(hdr + 10, dict, (size_t)len);
    memset(hdr + 10 + len, ' ', hlen - (size_t)len - 1);
    hdr[total - 1] = '\n';
    return total;
}

/* The element type a kernel argument's type name points at, as (kind, size): "float*" -> f4,
 * "const uint*" -> u4, "float4*" -> f4 (vector elements), "half*" -> f2.  0 when known. */
int cli_type_elem(const char *type_name, char *kind, unsigned *size) {
    static const struct {
        const char *name;
        char kind;
        unsigned size;
    } types[] = {
        {"bool", 'b', 1},
        {"char", 'i', 1},
        {"signed char", 'i', 1},
        {"uchar", 'u', 1},
        {"unsigned char", 'u', 1},
        {"short", 'i', 2},
        {"ushort", 'u', 2},
        {"unsigned short", 'u', 2},
        {"int", 'i', 4},
        {"uint", 'u', 4},
        {"unsigned int", 'u', 4},
        {"unsigned", 'u', 4},
        {"long", 'i', 8},
        {"ulong", 'u', 8},
        {"unsigned long", 'u', 8},
        {"long long", 'i', 8},
        {"unsigned long long", 'u', 8},
        {"half", 'f', 2},
        {"_Float16", 'f', 2},
        {"float", 'f', 4},
        {"double", 'f', 8},
        {"int8_t", 'i', 1},
        {"uint8_t", 'u', 1},
        {"int16_t", 'i', 2},
        {"uint16_t", 'u', 2},
        {"int32_t", 'i', 4},
        {"uint32_t", 'u', 4},
        {"int64_t", 'i', 8},
        {"uint64_t", 'u', 8},
    };
    if (!type_name)
        return -1;
    char t[128];
    snprintf(t, sizeof t, "%s", type_name);
    char *star = strchr(t, '*');
    if (!star)
        return -1;
    *star = 0;
    /* drop qualifiers and address-space words, squeeze blanks */
    static const char *const drop[] = {"const",      "volatile", "restrict", "__global", "global",
                                       "__constant", "constant", "__local",  "local"};
    char out[128] = "";
    for (char *w = strtok(t, " "); w; w = strtok(NULL, " ")) {
        int skip = 0;
        for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
            skip |= strcmp(w, drop[i]) == 0;
        if (!skip)
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", *out ? " " : "", w);
    }
    /* OpenCL vector types: float4, uint2, half8, ... count as their element type */
    size_t l = strlen(out);
    while (l && isdigit((unsigned char)out[l - 1]))
        out[--l] = 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(out, types[i].name) == 0) {
            *kind = types[i].kind;
            *size = types[i].size;
            return 0;
        }
    return -1;
}

int cli_is_npy_path(const char *path, size_t len) {
    return len >= 4 && memcmp(path + len - 4, ".npy", 4) == 0;
}

/* Compare an array's dtype with what argument `ai` points at, when its type name says. */
static int check_dtype(const cli_npy *np, const gfx_arg_info *ai, char *err, size_t errsz) {
    char kind;
    unsigned size;
    if (cli_type_elem(ai->type_name, &kind, &size))
        return 0; /* no type name, or a struct: nothing to compare with */
    if (kind == np->kind && size == np->size)
        return 0;
    snprintf(err, errsz, "the array's dtype is %s, the argument is %s (%s elements)",
             cli_npy_dtype_name(np->kind, np->size), ai->type_name, cli_npy_dtype_name(kind, size));
    return -1;
}

int cli_npy_load(const char *path, unsigned char *data, uint64_t *nbytes, cli_npy *np,
                 const gfx_arg_info *ai, char *err, size_t errsz) {
    memset(np, 0, sizeof *np);
    if (!cli_is_npy_path(path, strlen(path)))
        return 0;
    if (cli_npy_parse(data, *nbytes, np, err, errsz) || check_dtype(np, ai, err, errsz))
        return -1;
    memmove(data, data + np->data_offset, np->nbytes);
    *nbytes = np->nbytes;
    return 0;
}

int cli_npy_out(const char *spec, const char *path, uint64_t nbytes, cli_npy *np,
                const gfx_arg_info *ai, char *err, size_t errsz) {
    memset(np, 0, sizeof *np);
    if (!cli_is_npy_path(path, strlen(path)))
        return 0;
    const char *last = strrchr(spec, ':');
    if (last && cli_npy_parse_spec(last + 1, np) == 0)
        return check_dtype(np, ai, err, errsz);
    /* out:y.npy:BYTES: a 1-D array of the argument's element type (bytes if it has none) */
    char kind = 'u';
    unsigned size = 1;
    cli_type_elem(ai->type_name, &kind, &size);
    if (nbytes % size) {
        snprintf(err, errsz, "%llu bytes is not a whole number of %s elements",
                 (unsigned long long)nbytes, cli_npy_dtype_name(kind, size));
        return -1;
    }
    np->valid = 1;
    np->kind = kind;
    np->size = size;
    np->ndim = 1;
    np->shape[0] = nbytes / size;
    np->nbytes = nbytes;
    return 0;
}

int cli_npy_write(const char *path, const cli_npy *np, const void *data, uint64_t nbytes, char *err,
                  size_t errsz) {
    char hdr[512];
    size_t hl = cli_npy_header(np, hdr, sizeof hdr);
    FILE *fp = fopen(path, "wb");
    if (!fp || !hl) {
        snprintf(err, errsz, "%s", fp ? "header too long" : strerror(errno));
        if (fp)
            fclose(fp);
        return -1;
    }
    size_t n = fwrite(hdr, 1, hl, fp);
    n += fwrite(data, 1, nbytes, fp);
    if (fclose(fp) != 0 || n != hl + nbytes) {
        snprintf(err, errsz, "write error");
        return -1;
    }
    return 0;
}
