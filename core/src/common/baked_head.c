/* baked_head.c - the 64-byte head that opens every baked file (.pft tables, pattern databases,
 * accelerators): magic (8 bytes), format version (4), then the format's own fields, and at 56 the
 * XXH3 of the first 56 bytes, so a corrupted head is refused before any field it announces is
 * believed (baked_head_internal.h). */
#include <xxhash.h>
#include "common/baked_head_internal.h"
#include "common/pf_internal.h"

void pf__head_seal(uint8_t *h) { pf__put64(h + 56, XXH3_64bits(h, 56)); }

pf_status pf__head_check(const uint8_t *h, const char magic[8], uint32_t version, const char *what, const char *name,
                         pf_diag *diag)
{
    if (memcmp(h, magic, 8) != 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "not a pathfind %s (bad magic)", what);
    const uint32_t v = pf__get32(h + 8);
    if (v != version)
        return pf__diag_set(diag, PF_UNSUPPORTED, name, 0, 0, "%s file version %u, this build reads version %u", what, v,
                            version);
    if (pf__get64(h + 56) != XXH3_64bits(h, 56))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "header checksum mismatch (corrupted)");
    return PF_OK;
}
