/* test_shared_copy.c - x_shared_load()/x_shared_store() (src/exec/xatomic.h), the copies every
 * plain global access goes through: for every size a vector or scalar access has (1-16 bytes and
 * the 4n-byte SMEM ones) at every alignment, exactly the bytes of the access move, in both
 * directions, and nothing around them changes.  The reference is the plain byte loop here. */
#include "common/check.h"
#include "exec/xatomic.h"

#include <stdint.h>
#include <string.h>

int main(void) {
    _Alignas(64) uint8_t mem[160], reg[80], want[160];
    static const unsigned sizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 32, 64};
    for (unsigned si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (unsigned off = 0; off < 16; off++) {
            unsigned n = sizes[si];
            for (unsigned i = 0; i < sizeof mem; i++)
                mem[i] = (uint8_t)(i * 7 + 1);
            for (unsigned i = 0; i < sizeof reg; i++)
                reg[i] = (uint8_t)(0xa0 + i);
            memcpy(want, mem, sizeof mem);
            for (unsigned i = 0; i < n; i++)
                want[16 + off + i] = reg[8 + i];
            x_shared_store(mem + 16 + off, reg + 8, n);
            CHECK(memcmp(mem, want, sizeof mem) == 0, "store of %u bytes at offset %u", n, off);
            uint8_t back[80];
            memset(back, 0x55, sizeof back);
            x_shared_load(back + 8, mem + 16 + off, n);
            int ok = back[7] == 0x55 && back[8 + n] == 0x55;
            for (unsigned i = 0; i < n; i++)
                ok &= back[8 + i] == reg[8 + i];
            CHECK(ok, "load of %u bytes at offset %u", n, off);
        }
    return check_summary("shared_copy");
}
