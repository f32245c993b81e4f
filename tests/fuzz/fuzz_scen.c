/* fuzz_scen.c - the Moving AI scenario parser (pf_scen_parse) on arbitrary bytes.
 *
 * Corpus files are real .scen text. Every entry of a scenario that loads must satisfy what the
 * header promises (start and goal inside the stated map, non-negative finite length); the parse is
 * repeated with the n-th allocation failing (n from the input's length) to fuzz OOM unwinding.
 */
#include <math.h>
#include "fuzz_common.h"

static void parse_one(const char *text, size_t size, fuzz_alloc_state *as)
{
    pf_allocator a = fuzz_alloc_hooks(as);
    pf_scen *sc = (pf_scen *)&sc;
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag);
    pf_status st = pf_scen_parse(text, size, "fuzz.scen", &(pf_scen_load_desc){.allocator = a}, &sc, &diag);
    fuzz_check_diag(&diag, st);
    if (st != PF_OK) {
        FUZZ_CHECK(sc == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_OUT_OF_MEMORY);
        return;
    }
    FUZZ_CHECK(sc != NULL);
    uint32_t n = pf_scen_count(sc);
    FUZZ_CHECK((uint64_t)n * 17 <= size); /* nine fields and eight separators: 17 bytes a line at least */
    for (uint32_t i = 0; i < n; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        FUZZ_CHECK(e != NULL);
        FUZZ_CHECK(e->sx >= 0 && e->sy >= 0 && e->gx >= 0 && e->gy >= 0);
        FUZZ_CHECK((uint32_t)e->sx < e->map_width && (uint32_t)e->gx < e->map_width);
        FUZZ_CHECK((uint32_t)e->sy < e->map_height && (uint32_t)e->gy < e->map_height);
        FUZZ_CHECK(e->optimal >= 0.0 && isfinite(e->optimal));
    }
    FUZZ_CHECK(pf_scen_get(sc, n) == NULL);
    FUZZ_CHECK(pf_scen_get(sc, UINT32_MAX) == NULL);
    const char *name = pf_scen_map_name(sc);
    FUZZ_CHECK(name != NULL && strlen(name) < 256);
    if (n == 0) FUZZ_CHECK(name[0] == '\0');
    pf_scen_destroy(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_alloc_state as = {.max_size = (size_t)1 << 28};
    parse_one((const char *)data, size, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    as.calls = 0;
    as.fail_at = (unsigned)(1 + size % 4);
    parse_one((const char *)data, size, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    return 0;
}
