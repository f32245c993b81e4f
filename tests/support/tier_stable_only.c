/* tier_stable_only.c - compiled, never run: the umbrella header without PF_EXPERIMENTAL_API (the
 * project defines it for its own code, so undefine it here) must declare none of the experimental
 * tier (pf_export.h, TIERS). Each name below is redeclared as something else; had the header
 * declared it, this file would not compile. */
#undef PF_EXPERIMENTAL_API
#include <pathfind.h>

typedef int pf_accel_desc;
typedef int pf_accel_info;
typedef int pf_path_check_desc;
int tier_stable_only(void);
static int pf_accel_create, pf_accel_load, pf_ctx_use_accel, pf_grid_path_check, pf_path_repair;

int tier_stable_only(void)
{
    pf_accel_desc d = 0;
    pf_accel_info i = 0;
    pf_path_check_desc c = 0;
    return d + i + c + pf_accel_create + pf_accel_load + pf_ctx_use_accel + pf_grid_path_check + pf_path_repair;
}
