/* bytes_internal.h - little-endian fields of the baked file formats (.pft tables, accelerators),
 * written and read byte by byte so the files are the same on every host (never installed). */
#ifndef PF_BYTES_INTERNAL_H
#define PF_BYTES_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "pathfind/pf_status.h"

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

/* The 64-byte head of every baked format (baked_head.c): magic at 0, version at 8, the XXH3 of
 * bytes 0-55 at 56. pf__head_seal writes the checksum once the other fields are in; pf__head_check
 * refuses a head of another format (PF_PARSE_ERROR, "not a pathfind WHAT"), another version
 * (PF_UNSUPPORTED) or a corrupted one (PF_PARSE_ERROR), the message in diag under `name`. */
void      pf__head_seal(uint8_t *h);
pf_status pf__head_check(const uint8_t *h, const char magic[8], uint32_t version, const char *what, const char *name,
                         pf_diag *diag);

#endif
