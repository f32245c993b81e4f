/* status.c - names and messages of pf_status (from the X-macro list). */
#include "pathfind/pf_status.h"

const char *pf_status_str(pf_status s)
{
    switch (s) {
#define PF__STATUS_STR(name, value, text) case PF_##name: return text;
        PF_STATUS_LIST(PF__STATUS_STR)
#undef PF__STATUS_STR
    }
    return "unknown status";
}

const char *pf_status_name(pf_status s)
{
    switch (s) {
#define PF__STATUS_NAME(name, value, text) case PF_##name: return #name;
        PF_STATUS_LIST(PF__STATUS_NAME)
#undef PF__STATUS_NAME
    }
    return "UNKNOWN";
}
