/* baked_head_internal.h - the head every baked file format begins with (baked_head.c; never
 * installed). Its fields are little-endian (bytes_internal.h). */
#ifndef PF_BAKED_HEAD_INTERNAL_H
#define PF_BAKED_HEAD_INTERNAL_H

#include <stdint.h>
#include "bytes_internal.h"
#include "pathfind/pf_status.h"

/* The 64-byte head of every baked format (baked_head.c): magic at 0, version at 8, the XXH3 of
 * bytes 0-55 at 56. pf__head_seal writes the checksum once the other fields are in; pf__head_check
 * refuses a head of another format (PF_PARSE_ERROR, "not a pathfind WHAT"), another version
 * (PF_UNSUPPORTED) or a corrupted one (PF_PARSE_ERROR), the message in diag under `name`. */
void      pf__head_seal(uint8_t *h);
pf_status pf__head_check(const uint8_t *h, const char magic[8], uint32_t version, const char *what, const char *name,
                         pf_diag *diag);

#endif
