/* hash_le_internal.h - XXH3 over arrays of numbers as their little-endian bytes, whatever the host
 * (never installed). Fingerprints that baked files carry (maps, pattern databases) are compared
 * across machines: hashed from memory, a big-endian host got other values and refused every file
 * made elsewhere, though the payloads were the same (a cross-machine review). On a little-endian
 * host this is XXH3_64bits_update itself. Include <xxhash.h> (XXH_STATIC_LINKING_ONLY) first. */
#ifndef PF_HASH_LE_INTERNAL_H
#define PF_HASH_LE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "bytes_internal.h"

/* Feeds `count` numbers of `width` bytes (1, 2, 4 or 8) at p, each as its little-endian bytes. */
static inline void pf__hash_le(XXH3_state_t *st, const void *p, size_t count, size_t width)
{
    if (pf__host_is_le() || width == 1) {
        XXH3_64bits_update(st, p, count * width);
        return;
    }
    uint8_t buf[512];
    const uint8_t *src = (const uint8_t *)p;
    const size_t per = sizeof buf / width;
    while (count) {
        const size_t n = count < per ? count : per;
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < width; b++) buf[i * width + b] = src[i * width + width - 1u - b];
        XXH3_64bits_update(st, buf, n * width);
        src += n * width;
        count -= n;
    }
}

#endif
