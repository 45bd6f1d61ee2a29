// rocrand_philox.hip - a call into AMD's own library as Debian ships it: librocrand1's gfx90a
// kernels generate 2^16 Philox4x32-10 numbers on the virtual GPU; each is checked against a host
// implementation of Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC'11: 10 rounds, multipliers 0xD2511F53/0xCD9E8D57, Weyl key increments 0x9E3779B9/
// 0xBB67AE85), whose counter n yields outputs 4n..4n+3 for key = the 64-bit seed.
#include <hip/hip_runtime.h>
#include <rocrand/rocrand.h>
#include <stdint.h>
#include <stdio.h>

static void philox4x32_10(uint32_t c[4], uint64_t seed) {
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
        c[1] = (uint32_t)p1;
        c[3] = (uint32_t)p0;
        c[0] = n0;
        c[2] = n2;
    }
}

int main() {
    const int n = 1 << 16;
    const uint64_t seed = 0x1234567890abcdefull;
    static unsigned h[1 << 16];
    unsigned *d;
    rocrand_generator g;
    if (hipMalloc(&d, n * 4) != hipSuccess ||
        rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_PHILOX4_32_10) != ROCRAND_STATUS_SUCCESS ||
        rocrand_set_seed(g, seed) != ROCRAND_STATUS_SUCCESS ||
        rocrand_generate(g, d, n) != ROCRAND_STATUS_SUCCESS ||
        hipMemcpy(h, d, n * 4, hipMemcpyDeviceToHost) != hipSuccess) {
        printf("FAIL rocrand: a call failed\n");
        return 1;
    }
    for (uint32_t i = 0; i < (uint32_t)n; i += 4) {
        uint32_t c[4] = {i / 4, 0, 0, 0};
        philox4x32_10(c, seed);
        for (int j = 0; j < 4; j++)
            if (h[i + j] != c[j]) {
                printf("FAIL rocrand: output %u = 0x%08x, expected 0x%08x\n", i + j, h[i + j], c[j]);
                return 1;
            }
    }
    rocrand_destroy_generator(g);
    printf("PASS rocrand\n");
    return 0;
}
