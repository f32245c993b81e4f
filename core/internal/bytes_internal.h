/* bytes_internal.h - little-endian fields, written and read byte by byte so that what they feed is
 * the same on every host: the baked file formats (.pft tables, accelerators, pattern databases),
 * the fingerprints and the batch's order hash (never installed; core and batch share it). */
#ifndef PF_BYTES_INTERNAL_H
#define PF_BYTES_INTERNAL_H

#include <stdint.h>
#include <string.h>

static inline void pf__put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void pf__put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t pf__get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static inline uint64_t pf__get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
/* Non-zero on a little-endian host: payloads of u32 arrays are then copied as they are. */
static inline int pf__host_is_le(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

#endif
