/* test_cubin.c - sm_87 cubin loading.  Part 1 builds cubins by hand (ELF64, EM_CUDA, the
 * .nv.info attribute encodings nvcc writes) so every expected value is chosen by the test;
 * part 2 compiles real kernels with nvcc when it is installed, checks their parameter layout
 * against the CUDA ABI (pointer 8 bytes, int 4, in declaration order) and runs one end to end on
 * the simulated GPU.  Without nvcc part 2 prints a line saying it did not run. */
#include "tegra_test.h"

#include <elf.h>
#include <unistd.h>

/* ---- a hand-built cubin ------------------------------------------------------------------- */

typedef struct img {
    uint8_t b[8192];
    size_t len;
} img;

static size_t put(img *im, const void *p, size_t n, size_t align) {
    while (im->len % align)
        im->b[im->len++] = 0;
    size_t at = im->len;
    memcpy(im->b + at, p, n);
    im->len += n;
    return at;
}

static void info_sval(uint8_t *buf, size_t *n, unsigned attr, const void *d, uint16_t len) {
    buf[(*n)++] = 4;
    buf[(*n)++] = (uint8_t)attr;
    memcpy(buf + *n, &len, 2);
    *n += 2;
    memcpy(buf + *n, d, len);
    *n += len;
}

static void info_short(uint8_t *buf, size_t *n, unsigned fmt, unsigned attr, uint16_t v) {
    buf[(*n)++] = (uint8_t)fmt;
    buf[(*n)++] = (uint8_t)attr;
    memcpy(buf + *n, &v, 2);
    *n += 2;
}

static void kparam(uint8_t *buf, size_t *n, uint16_t ord, uint16_t off, uint32_t size) {
    uint8_t d[12];
    uint32_t zero = 0, flags = size << 18 | 0x1f000u;
    memcpy(d, &zero, 4);
    memcpy(d + 4, &ord, 2);
    memcpy(d + 6, &off, 2);
    memcpy(d + 8, &flags, 4);
    info_sval(buf, n, 0x17, d, 12);
}

typedef struct variant {
    unsigned sm;
    uint32_t frame;
    uint16_t p2_off;    /* offset of parameter 2 (16 unless testing a bad layout) */
    uint32_t min_stack; /* EIATTR_MIN_STACK_SIZE (0x12) */
} variant;

static void build(img *im, variant v) {
    memset(im, 0, sizeof *im);
    im->len = sizeof(Elf64_Ehdr);
    const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0.nv.info.kern\0.text.kern\0"
                         ".nv.constant0.kern\0.nv.shared.kern";
    enum {
        N_SHSTR = 1,
        N_STR = 11,
        N_SYM = 19,
        N_INFO = 27,
        N_KINFO = 36,
        N_TEXT = 50,
        N_CB = 61,
        N_SH = 80
    };
    const char str[] = "\0kern";
    Elf64_Sym syms[2];
    memset(syms, 0, sizeof syms);
    syms[1].st_name = 1;
    syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    syms[1].st_shndx = 6;
    syms[1].st_size = 256;
    uint8_t ginfo[64], kinfo[256];
    size_t gn = 0, kn = 0;
    uint32_t rc[2] = {1, 12}, fs[2] = {1, v.frame}, ms[2] = {1, v.min_stack};
    info_sval(ginfo, &gn, 0x2f, rc, 8);                      /* REGCOUNT */
    info_sval(ginfo, &gn, 0x11, fs, 8);                      /* FRAME_SIZE */
    info_sval(ginfo, &gn, 0x12, ms, 8);                      /* MIN_STACK_SIZE */
    uint8_t cbank[8] = {1, 0, 0, 0, 0x60, 0x01, 0x20, 0x00}; /* sym 1, offset 0x160, size 0x20 */
    info_short(kinfo, &kn, 1, 0x35, 0);                      /* an attribute we ignore */
    info_sval(kinfo, &kn, 0x0a, cbank, 8);
    info_short(kinfo, &kn, 3, 0x19, 0x20);
    kparam(kinfo, &kn, 2, v.p2_off, 16); /* nvcc lists the last parameter first */
    kparam(kinfo, &kn, 1, 8, 4);
    kparam(kinfo, &kn, 0, 0, 8);
    info_short(kinfo, &kn, 2, 0x4c, 1); /* one barrier */
    uint32_t exits[2] = {0x70, 0xf0};
    info_sval(kinfo, &kn, 0x1c, exits, 8);
    uint8_t code[256];
    for (int i = 0; i < 256; i++)
        code[i] = (uint8_t)(i ^ 0x5a);
    uint8_t cb0[0x180];
    memset(cb0, 0, sizeof cb0);

    Elf64_Shdr sh[9];
    memset(sh, 0, sizeof sh);
    sh[1] = (Elf64_Shdr){N_SHSTR,      SHT_STRTAB, 0, 0, put(im, shstr, sizeof shstr, 1),
                         sizeof shstr, 0,          0, 1, 0};
    sh[2] =
        (Elf64_Shdr){N_STR, SHT_STRTAB, 0, 0, put(im, str, sizeof str, 1), sizeof str, 0, 0, 1, 0};
    sh[3] = (Elf64_Shdr){N_SYM,       SHT_SYMTAB, 0, 0, put(im, syms, sizeof syms, 8),
                         sizeof syms, 2,          1, 8, sizeof(Elf64_Sym)};
    sh[4] = (Elf64_Shdr){N_INFO, SHT_LOPROC, 0, 0, put(im, ginfo, gn, 4), gn, 3, 0, 4, 0};
    sh[5] =
        (Elf64_Shdr){N_KINFO, SHT_LOPROC, SHF_INFO_LINK, 0, put(im, kinfo, kn, 4), kn, 3, 6, 4, 0};
    sh[6] = (Elf64_Shdr){N_TEXT,
                         SHT_PROGBITS,
                         SHF_ALLOC | SHF_EXECINSTR,
                         0,
                         put(im, code, 256, 128),
                         256,
                         3,
                         12u << 24 | 1,
                         128,
                         0};
    sh[7] =
        (Elf64_Shdr){N_CB, SHT_PROGBITS, SHF_ALLOC, 0, put(im, cb0, 0x180, 4), 0x180, 0, 6, 4, 0};
    sh[8] = (Elf64_Shdr){N_SH, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, im->len, 0x400, 0, 6, 4, 0};
    size_t shoff = put(im, sh, sizeof sh, 8);
    Elf64_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = 190;
    eh.e_version = 1;
    eh.e_flags = 0x06000004u | v.sm << 8;
    eh.e_ehsize = sizeof eh;
    eh.e_shoff = shoff;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = 9;
    eh.e_shstrndx = 1;
    memcpy(im->b, &eh, sizeof eh);
}

static void test_hand_built(void) {
    static img im;
    build(&im, (variant){87, 0, 16, 0});
    nvt_module *m;
    char err[256] = "";
    CHECK(nvt_module_parse(im.b, im.len, &m, err, sizeof err) == 0, "parse: %s", err);
    if (!m)
        return;
    CHECK(nvt_module_count(m) == 1, "one kernel");
    const nvt_kernel_info *k = nvt_module_kernel(m, "kern");
    CHECK(k != NULL && nvt_module_kernel(m, "nope") == NULL, "lookup by name");
    if (!k)
        return;
    CHECK(k->code_size == 256 && ((const uint8_t *)k->code)[3] == (3 ^ 0x5a), "code");
    CHECK(k->registers == 12, "registers %u", k->registers);
    CHECK(k->shared_bytes == 0x400, "shared %u", k->shared_bytes);
    CHECK(k->barriers == 1, "barriers %u", k->barriers);
    CHECK(k->param_base == 0x160 && k->param_size == 0x20, "params at 0x%x, %u bytes",
          k->param_base, k->param_size);
    CHECK(k->cbuf0_size == 0x180, "cbuf0 0x%x", k->cbuf0_size);
    CHECK(k->nparams == 3 && k->param_offset[0] == 0 && k->param_bytes[0] == 8 &&
              k->param_offset[1] == 8 && k->param_bytes[1] == 4 && k->param_offset[2] == 16 &&
              k->param_bytes[2] == 16,
          "layout: %u params", k->nparams);
    uint8_t cb[0x180];
    memset(cb, 0xcc, sizeof cb);
    uint64_t p0 = 0x1122334455667788ull;
    int32_t p1 = -2;
    uint8_t p2[16];
    for (int i = 0; i < 16; i++)
        p2[i] = (uint8_t)(0xa0 + i);
    const void *args[3] = {&p0, &p1, p2};
    CHECK(nvt_kernel_bind_params(k, cb, sizeof cb, args, 3) == 0, "bind");
    CHECK(!memcmp(cb + 0x160, &p0, 8) && !memcmp(cb + 0x168, &p1, 4) && cb[0x16c] == 0xcc &&
              !memcmp(cb + 0x170, p2, 16),
          "parameters in cbuf0 at 0x160/0x168/0x170, padding untouched");
    CHECK(nvt_kernel_bind_params(k, cb, 0x170, args, 3) == -EINVAL, "cbuf0 too small");
    nvt_module_destroy(m);

    build(&im, (variant){80, 0, 16, 0});
    CHECK(nvt_module_parse(im.b, im.len, &m, err, sizeof err) == -ENOEXEC &&
              strstr(err, "sm_80") != NULL,
          "sm_80 refused: %s", err);
    build(&im, (variant){87, 0, 24, 0});
    CHECK(nvt_module_parse(im.b, im.len, &m, err, sizeof err) == -EINVAL &&
              strstr(err, "parameter 2") != NULL,
          "parameter past the block: %s", err);
    /* local memory: the larger of FRAME_SIZE and MIN_STACK_SIZE, rounded up to 16 bytes */
    static const uint32_t lm[][3] = {{64, 0, 64}, {40, 200, 208}, {0, 0, 0}, {16, 16, 16}};
    for (unsigned i = 0; i < sizeof lm / sizeof lm[0]; i++) {
        build(&im, (variant){87, lm[i][0], 16, lm[i][1]});
        m = NULL;
        int r = nvt_module_parse(im.b, im.len, &m, err, sizeof err);
        const nvt_kernel_info *lk = m ? nvt_module_kernel(m, "kern") : NULL;
        CHECK(r == 0 && lk && lk->local_bytes == lm[i][2],
              "frame %u, min stack %u: local bytes %u, want %u (%s)", lm[i][0], lm[i][1],
              lk ? lk->local_bytes : 0, lm[i][2], r ? err : "ok");
        nvt_module_destroy(m);
    }
    build(&im, (variant){87, 0, 16, 1u << 24});
    CHECK(nvt_module_parse(im.b, im.len, &m, err, sizeof err) == -E2BIG &&
              strstr(err, "local memory") != NULL,
          "16 MiB of local memory per thread refused by name: %s", err);
    build(&im, (variant){87, 0, 16, 0});
    CHECK(nvt_module_parse(im.b, 200, &m, err, sizeof err) == -EINVAL, "truncated: %s", err);
    CHECK(nvt_module_parse("hello", 5, &m, err, sizeof err) == -EINVAL, "not ELF");
    /* every truncation cuts the section header table at the end: all must fail cleanly
     * (ASan watches the reads) */
    int parsed = 0;
    for (size_t n = 0; n < im.len; n += 7)
        if (nvt_module_parse(im.b, n, &m, NULL, 0) == 0) {
            parsed++;
            nvt_module_destroy(m);
        }
    CHECK(parsed == 0, "%d truncated images parsed", parsed);
    /* A section whose bytes the parser reads (names, code, attributes) marked SHT_NOBITS with
     * an offset far outside the file: the NOBITS exemption of the bounds check must not let
     * the parser read (or hand out a code pointer) there.  Found by tests/fuzz/fuzz_cubin. */
    static const unsigned readers[] = {1, 4, 5, 6}; /* .shstrtab, .nv.info, .nv.info.kern, .text */
    for (unsigned i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        build(&im, (variant){87, 0, 16, 0});
        Elf64_Ehdr eh;
        Elf64_Shdr sh;
        memcpy(&eh, im.b, sizeof eh);
        uint8_t *shp = im.b + eh.e_shoff + readers[i] * sizeof sh;
        memcpy(&sh, shp, sizeof sh);
        sh.sh_type = SHT_NOBITS;
        sh.sh_offset = 0x7fff0000;
        memcpy(shp, &sh, sizeof sh);
        m = NULL;
        int r = nvt_module_parse(im.b, im.len, &m, err, sizeof err);
        CHECK(r == -EINVAL && m == NULL, "NOBITS section %u: parse returned %d (%s)", readers[i], r,
              err);
        nvt_module_destroy(m);
    }
}

/* ---- real nvcc cubins --------------------------------------------------------------------- */

/* The cubin nvcc makes of src (kept in the oracle cache: tegra_test.h nvcc_cached). */
static int nvcc_cubin(const char *src, uint8_t **data, size_t *size) {
    return nvcc_cached("-arch=sm_87", src, data, size);
}

static void test_nvcc(void) {
    if (system("command -v nvcc >/dev/null 2>&1") != 0) {
        printf("NOTE: nvcc not found: the real-cubin checks did NOT run (not a pass)\n");
        return;
    }
    uint8_t *kb = NULL, *mb = NULL;
    size_t ks = 0, ms = 0;
    int okk = nvcc_cubin("extern \"C\" __global__ void scale(float *a, int n, float s) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i < n) a[i] *= s;\n}\n",
                         &kb, &ks);
    int okm = nvcc_cubin("extern \"C\" __global__ void rev(float *a, const float *b, int n) {\n"
                         "  __shared__ float s[256];\n  int i = threadIdx.x;\n  s[i] = b[i];\n"
                         "  __syncthreads();\n  if (i < n) a[i] = s[255 - i];\n}\n",
                         &mb, &ms);
    CHECK(okk == 0 && okm == 0, "nvcc compiled both kernels");
    if (okk || okm)
        return;
    nvt_module *m;
    char err[256] = "";
    CHECK(nvt_module_parse(mb, ms, &m, err, sizeof err) == 0, "parse rev: %s", err);
    const nvt_kernel_info *r = m ? nvt_module_kernel(m, "rev") : NULL;
    CHECK(r != NULL, "rev found");
    if (r) {
        CHECK(r->nparams == 3 && r->param_offset[0] == 0 && r->param_bytes[0] == 8 &&
                  r->param_offset[1] == 8 && r->param_bytes[1] == 8 && r->param_offset[2] == 16 &&
                  r->param_bytes[2] == 4 && r->param_size == 20,
              "rev(float*, const float*, int): %u params, size %u", r->nparams, r->param_size);
        CHECK(r->shared_bytes == 256 * 4, "1 KiB of __shared__: %u", r->shared_bytes);
        CHECK(r->barriers >= 1, "__syncthreads needs a barrier: %u", r->barriers);
        CHECK(r->registers > 0 && r->registers <= 255, "registers %u", r->registers);
    }
    nvt_module_destroy(m);
    free(mb);

    CHECK(nvt_module_parse(kb, ks, &m, err, sizeof err) == 0, "parse scale: %s", err);
    const nvt_kernel_info *ki = m ? nvt_module_kernel(m, "scale") : NULL;
    CHECK(ki && ki->nparams == 3 && ki->param_offset[1] == 8 && ki->param_offset[2] == 12 &&
              ki->param_size == 16 && ki->param_base == 0x160 && ki->shared_bytes == 0,
          "scale(float*, int, float) layout");
    if (ki) {
        /* end to end: the real cubin's code and layout, a C stand-in for its SASS */
        nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
        nvt_dev *dev = open_sim_dev(sim);
        nvt_queue *q = NULL;
        nvt_kernel *k = NULL;
        nvt_mem *buf = NULL;
        int setup = nvt_queue_create(dev, NULL, &q) == 0 && nvt_kernel_load(dev, ki, &k) == 0 &&
                    nvt_mem_alloc(dev, 100 * 4, 0, &buf) == 0;
        CHECK(setup, "setup: %s", nvt_dev_error(dev));
        if (!setup)
            exit(check_summary("tegra/test_cubin"));
        nvt_sim_register_kernel(sim, k->code_va, sim_scale, NULL);
        float *f = buf->cpu;
        for (int i = 0; i < 100; i++)
            f[i] = (float)i;
        int32_t n = 100;
        float s = -3.0f;
        const void *args[3] = {&buf->gpu_va, &n, &s};
        uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
        uint64_t sig;
        CHECK(nvt_launch(q, k, grid, block, args, 3, &sig) == 0 &&
                  nvt_queue_wait(q, sig, 5000) == 0,
              "launch: %s", nvt_dev_error(dev));
        int bad = 0;
        for (int i = 0; i < 100; i++)
            bad += f[i] != (float)i * -3.0f;
        CHECK(bad == 0, "%d wrong", bad);
        CHECK(!memcmp(k->code_mem->cpu, ki->code, ki->code_size), "code uploaded");
        nvt_mem_free(dev, buf);
        nvt_kernel_unload(dev, k);
        nvt_queue_destroy(q);
        nvt_dev_close(dev);
        nvt_sim_destroy(sim);
    }
    nvt_module_destroy(m);
    free(kb);
}

/* ---- real nvcc kernels with local memory, dynamic shared memory and __syncthreads -------- */

static const char mem_cu[] =
    "extern \"C\" __global__ void lmem(float *out, const float *in, const int *idx, int n) {\n"
    "  float a[256];\n" /* dynamically indexed: nvcc puts it in local memory (1 KiB) */
    "  for (int i = 0; i < n; i++) a[(i * 7) & 255] = in[i] * i;\n"
    "  int t = threadIdx.x;\n"
    "  if (t < n) out[t] = a[idx[t] & 255];\n}\n"
    "extern __shared__ float dyn[];\n"
    "extern \"C\" __global__ void dsh(float *out, const float *in, int n) {\n"
    "  int t = threadIdx.x;\n  dyn[t] = in[t];\n  __syncthreads();\n"
    "  if (t < n) out[t] = dyn[n - 1 - t];\n}\n";

typedef struct seen {
    nvt_sim_launch l; /* the launch as the simulated GPU saw it (cbuf0 copied below) */
    uint8_t cbuf0[0x30];
    unsigned calls;
} seen;

static void record(seen *s, const nvt_sim_launch *l) {
    s->l = *l;
    memcpy(s->cbuf0, l->cbuf0, sizeof s->cbuf0);
    s->calls++;
}

/* lmem's C stand-in.  Each thread's a[] lives in the local-memory store the driver set up, at
 * thread * local_bytes (a layout of our own: the point is that the store is mapped and big
 * enough for every launched thread's local_bytes). */
static int sim_lmem(const nvt_sim_launch *l, void *user) {
    record(user, l);
    uint64_t out_va, in_va, idx_va;
    int32_t n;
    memcpy(&out_va, l->cbuf0 + 0x160, 8);
    memcpy(&in_va, l->cbuf0 + 0x168, 8);
    memcpy(&idx_va, l->cbuf0 + 0x170, 8);
    memcpy(&n, l->cbuf0 + 0x178, 4);
    uint32_t threads = l->block[0];
    float *out = nvt_sim_translate(l->sim, out_va, (uint64_t)n * 4);
    const float *in = nvt_sim_translate(l->sim, in_va, (uint64_t)n * 4);
    const int32_t *idx = nvt_sim_translate(l->sim, idx_va, (uint64_t)n * 4);
    float *local = nvt_sim_translate(l->sim, l->local_va, (uint64_t)threads * l->local_bytes);
    if (!out || !in || !idx || !local || l->local_bytes < 256 * 4)
        return -EFAULT;
    for (uint32_t t = 0; t < threads; t++) {
        float *a = local + (size_t)t * (l->local_bytes / 4);
        for (int i = 0; i < n; i++)
            a[(i * 7) & 255] = in[i] * (float)i;
    }
    for (uint32_t t = 0; t < threads && (int)t < n; t++)
        out[t] = local[(size_t)t * (l->local_bytes / 4) + (idx[t] & 255)];
    return 0;
}

/* dsh's C stand-in: shared memory is per block, sized by the QMD (dynamic part included). */
static int sim_dsh(const nvt_sim_launch *l, void *user) {
    record(user, l);
    uint64_t out_va, in_va;
    int32_t n;
    memcpy(&out_va, l->cbuf0 + 0x160, 8);
    memcpy(&in_va, l->cbuf0 + 0x168, 8);
    memcpy(&n, l->cbuf0 + 0x170, 4);
    uint32_t threads = l->block[0];
    if (l->shared_bytes < threads * 4 + NVT_SHARED_RESERVED || l->barriers < 1)
        return -EFAULT; /* the block's shared array would not fit, or no barrier */
    float *out = nvt_sim_translate(l->sim, out_va, (uint64_t)threads * 4);
    const float *in = nvt_sim_translate(l->sim, in_va, (uint64_t)threads * 4);
    if (!out || !in)
        return -EFAULT;
    float dyn[1024];
    for (uint32_t t = 0; t < threads; t++)
        dyn[t] = in[t];
    for (uint32_t t = 0; t < threads && (int)t < n; t++)
        out[t] = dyn[n - 1 - (int)t];
    return 0;
}

static uint64_t get64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void test_nvcc_memory(nvt_abi abi) {
    if (system("command -v nvcc >/dev/null 2>&1") != 0) {
        printf("NOTE: nvcc not found: the local/shared-memory cubin checks did NOT run (not a "
               "pass)\n");
        return;
    }
    uint8_t *cb = NULL;
    size_t cs = 0;
    int ok = nvcc_cubin(mem_cu, &cb, &cs);
    CHECK(ok == 0, "nvcc compiled the memory kernels");
    if (ok)
        return;
    nvt_module *m = NULL;
    char err[256] = "";
    CHECK(nvt_module_parse(cb, cs, &m, err, sizeof err) == 0, "parse: %s", err);
    const nvt_kernel_info *li = m ? nvt_module_kernel(m, "lmem") : NULL;
    const nvt_kernel_info *di = m ? nvt_module_kernel(m, "dsh") : NULL;
    CHECK(li && di, "both kernels found");
    if (!li || !di) {
        nvt_module_destroy(m);
        free(cb);
        return;
    }
    /* float a[256]: 1 KiB of local memory per thread (nvcc's FRAME_SIZE and MIN_STACK_SIZE) */
    CHECK(li->local_bytes == 1024, "lmem: %u local bytes per thread", li->local_bytes);
    CHECK(di->local_bytes == 0 && di->shared_bytes == 0 && di->barriers == 1,
          "dsh: %u local, %u static shared, %u barriers", di->local_bytes, di->shared_bytes,
          di->barriers);

    nvt_sim *sim = nvt_sim_create(abi);
    nvt_dev *dev = open_sim_dev(sim);
    nvt_queue *q = NULL;
    nvt_kernel *lk = NULL, *dk = NULL;
    nvt_mem *buf = NULL;
    int setup = nvt_queue_create(dev, NULL, &q) == 0 && nvt_kernel_load(dev, li, &lk) == 0 &&
                nvt_kernel_load(dev, di, &dk) == 0 && nvt_mem_alloc(dev, 3 * 4096, 0, &buf) == 0;
    CHECK(setup, "setup: %s", nvt_dev_error(dev));
    if (!setup)
        exit(check_summary("tegra/test_cubin"));
    static seen sl, sd;
    memset(&sl, 0, sizeof sl);
    memset(&sd, 0, sizeof sd);
    nvt_sim_register_kernel(sim, lk->code_va, sim_lmem, &sl);
    nvt_sim_register_kernel(sim, dk->code_va, sim_dsh, &sd);
    enum { N = 256 };
    float *out = buf->cpu, *in = (float *)((uint8_t *)buf->cpu + 4096);
    int32_t *idx = (int32_t *)((uint8_t *)buf->cpu + 8192);
    for (int i = 0; i < N; i++) {
        in[i] = (float)(i % 13) - 6.0f;
        idx[i] = (i * 37 + 11) & 255;
        out[i] = -1.0f;
    }
    uint64_t out_va = buf->gpu_va, in_va = buf->gpu_va + 4096, idx_va = buf->gpu_va + 8192;
    int32_t n = N;
    const void *la[4] = {&out_va, &in_va, &idx_va, &n};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {N, 1, 1};
    uint64_t sig;
    CHECK(nvt_launch(q, lk, grid, block, la, 4, &sig) == 0 && nvt_queue_wait(q, sig, 5000) == 0,
          "lmem launch: %s", nvt_dev_error(dev));
    /* reference: a[(i * 7) & 255] = in[i] * i; 7 is odd, so a is a permutation of every i */
    float ref[256];
    for (int i = 0; i < N; i++)
        ref[(i * 7) & 255] = in[i] * (float)i;
    int bad = 0;
    for (int t = 0; t < N; t++)
        bad += out[t] != ref[idx[t] & 255];
    CHECK(bad == 0, "lmem: %d wrong", bad);
    CHECK(sl.calls == 1 && sl.l.local_bytes == 1024, "QMD local memory per thread %u",
          sl.l.local_bytes);
    CHECK(sl.l.shared_window == NVT_SHARED_WINDOW && sl.l.local_window == NVT_LOCAL_WINDOW &&
              get64(sl.cbuf0 + 0x18) == NVT_SHARED_WINDOW &&
              get64(sl.cbuf0 + 0x20) == NVT_LOCAL_WINDOW && get64(sl.cbuf0 + 0x28) == 1024,
          "windows 0x%llx/0x%llx, cbuf0 0x18 0x%llx, 0x20 0x%llx, stack top 0x28 = %llu",
          (unsigned long long)sl.l.shared_window, (unsigned long long)sl.l.local_window,
          (unsigned long long)get64(sl.cbuf0 + 0x18), (unsigned long long)get64(sl.cbuf0 + 0x20),
          (unsigned long long)get64(sl.cbuf0 + 0x28));
    /* 1 KiB x 3072 threads per TPC = 3 MiB per TPC, x 8 TPCs (2 GPCs x 4) */
    CHECK(sl.l.local_store_bytes == 8ull * 3 * 1024 * 1024, "local store %llu bytes for 8 TPCs",
          (unsigned long long)sl.l.local_store_bytes);
    uint32_t one[3] = {1, 1, 1};
    CHECK(get64(sl.cbuf0 + 0x0) == ((uint64_t)1 << 32 | N) && !memcmp(sl.cbuf0 + 0xc, one, 12),
          "blockDim and gridDim at 0x0 and 0xc");

    /* dynamic shared memory: 1 KiB of it, plus the reserved 1 KiB: the 8 KiB configuration */
    for (int i = 0; i < N; i++)
        out[i] = -1.0f;
    const void *da[3] = {&out_va, &in_va, &n};
    CHECK(nvt_launch_shared(q, dk, grid, block, N * 4, da, 3, &sig) == 0 &&
              nvt_queue_wait(q, sig, 5000) == 0,
          "dsh launch: %s", nvt_dev_error(dev));
    bad = 0;
    for (int t = 0; t < N; t++)
        bad += out[t] != in[N - 1 - t];
    CHECK(bad == 0, "dsh: %d wrong", bad);
    CHECK(sd.calls == 1 && sd.l.shared_bytes == N * 4 + 1024 && sd.l.sm_config == 8 / 4 + 1 &&
              sd.l.barriers == 1 && sd.l.local_bytes == 0 && get64(sd.cbuf0 + 0x28) == 0,
          "dsh QMD: shared %u, config %u, barriers %u, local %u", sd.l.shared_bytes, sd.l.sm_config,
          sd.l.barriers, sd.l.local_bytes);
    /* 100 KiB of dynamic shared memory: 101 KiB in all, the 132 KiB configuration (34) */
    CHECK(nvt_launch_shared(q, dk, grid, block, 100 * 1024, da, 3, &sig) == 0 &&
              nvt_queue_wait(q, sig, 5000) == 0 && sd.l.sm_config == 132 / 4 + 1 &&
              sd.l.shared_bytes == 101 * 1024,
          "100 KiB dynamic: config %u, shared %u", sd.l.sm_config, sd.l.shared_bytes);
    CHECK(nvt_launch_shared(q, dk, grid, block, 163 * 1024 + 4, da, 3, NULL) == -E2BIG &&
              strstr(nvt_dev_error(dev), "dynamic shared") != NULL,
          "too much shared memory refused: %s", nvt_dev_error(dev));

    /* a kernel that needs more local memory than the store holds: the queue grows it (and
     * the simulated GPU checks the new size per TPC against the QMD's) */
    nvt_kernel_info big = scale_info();
    big.local_bytes = 4096;
    nvt_kernel *bk = NULL;
    CHECK(nvt_kernel_load(dev, &big, &bk) == 0, "load");
    nvt_sim_register_kernel(sim, bk->code_va, sim_scale, NULL);
    float s = 2.0f;
    int32_t n4 = 4;
    const void *sa[3] = {&out_va, &n4, &s};
    CHECK(nvt_launch(q, bk, grid, block, sa, 3, &sig) == 0 && nvt_queue_wait(q, sig, 5000) == 0,
          "4 KiB of local memory: %s", nvt_dev_error(dev));
    CHECK(nvt_launch(q, lk, grid, block, la, 4, &sig) == 0 && nvt_queue_wait(q, sig, 5000) == 0,
          "lmem again, in the bigger store: %s", nvt_dev_error(dev));
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(st.faults == 0 && st.local_launches == 3 && st.unfenced_releases == 0,
          "%u faults (%s), %u local launches, %u unfenced releases", st.faults, st.last_fault,
          st.local_launches, st.unfenced_releases);
    nvt_kernel_unload(dev, bk);
    nvt_mem_free(dev, buf);
    nvt_kernel_unload(dev, lk);
    nvt_kernel_unload(dev, dk);
    nvt_queue_destroy(q);
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
    nvt_module_destroy(m);
    free(cb);
}

int main(void) {
    test_hand_built();
    test_nvcc();
    test_nvcc_memory(NVT_ABI_R35);
    test_nvcc_memory(NVT_ABI_R36);
    return check_summary("tegra/test_cubin");
}
