/* accel_edit.c - the accelerator follows its map's edits (pf_accel_desc.edits, pf_accel.h MAP EDITS).
 *
 * Two ways: PF_ACCEL_EDITS_CHECK follows by the diff (accel_diff.c: the hierarchy stays as built,
 * queries read the cells it was built from, and each answer is proven on the edited map or handed
 * to JPS; microseconds an edit), PF_ACCEL_EDITS_REBUILD by a whole rebuild inside the edit (here).
 *
 * An accelerator made with PF_ACCEL_EDITS_REBUILD is one of its map's users (map_user_internal.h):
 * after the cells of an edit changed, pf_grid_apply_edits calls accel_after, which builds the
 * accelerator of the edited map and moves its arrays into this one. The handle the contexts and
 * batches hold stays the same, and its fingerprint becomes the map's, so AUTO goes on answering by
 * it with no call from the caller.
 *
 * Why a whole rebuild and not a local repair: which nodes are subgoals changes only near the edit,
 * but a subgoal-graph arc changes wherever its canonical path crosses the edit (tens of cells away
 * across an open room), an arc dropped by the build's pruning may be needed again once its
 * equal-cost detour is walled, and a contraction skipped a shortcut wherever a witness search found
 * a detour, which is not recorded. Keeping the order and re-contracting the nodes whose
 * neighbourhood or witnesses an edit can reach, with everything above them, is the known exact
 * repair (dynamic contraction hierarchies); its extent on these maps has not been measured here.
 * The rebuild is exact by construction and is the fallback such a repair would keep for edits that
 * reach too far. What is built instead of a repair is the diff (accel_diff.c): it never changes the
 * hierarchy, and pays for an edit only in the queries the edit can affect, which JPS answers.
 */
#include <stddef.h>
#include "accel/accel_internal.h"

static int accel_after(pf__map_user *u, const pf_map *m, pf__edit_view *e)
{
    pf_accel *acc = (pf_accel *)(void *)((char *)u - offsetof(pf_accel, user));
    (void)e;
    /* an edit that made the map weighted: no accelerator answers it (pf_accel_supported); this one
     * stays stale, and AUTO says so, until an edit makes the map unweighted again */
    if (!pf_accel_supported(m)) return 1;
    pf_accel_desc d = acc->desc;
    d.edits = PF_ACCEL_EDITS_STALE; /* the fresh one is not a user of the map: its arrays move here */
    pf_accel *fresh = NULL;
    pf_status st = pf__accel_create_held(m, &d, &fresh); /* inside the edit: the map is the edit's */
    if (st != PF_OK) return st != PF_OUT_OF_MEMORY; /* stale (never wrong); out of memory is reported */
    /* Everything the build made (the hierarchy, its sizes, the landmark distances over its core)
     * moves here; the handle keeps what makes it this one (its map, allocator, desc and its place
     * among the map's users), and the old arrays leave with the fresh shell, with their own sizes
     * for the frees. */
    const pf_accel keep = *acc;
    *acc = *fresh;
    acc->map = keep.map;
    acc->alloc = keep.alloc;
    acc->desc = keep.desc;
    acc->user = keep.user;
    acc->following = keep.following;
    *fresh = keep;
    fresh->user = (pf__map_user){0};
    fresh->following = 0; /* never attached: destroying it detaches nothing */
    pf_accel_destroy(fresh);
    return 1;
}

int pf__accel_follow(pf_accel *acc)
{
    /* by the diff (accel_diff.c): D is empty now, the map being the one just built or loaded for.
     * Out of memory the create or load fails: an accelerator that said PF_OK and then followed
     * no edit was a stale one in silence */
    if (acc->desc.edits == PF_ACCEL_EDITS_CHECK) return pf__accel_diff_start(acc);
    if (acc->desc.edits != PF_ACCEL_EDITS_REBUILD || acc->following) return 1;
    /* acc->user is zero (the shell is zeroed when made) */
    acc->user.after = accel_after;
    acc->user.data = 1;
    pf__map_attach(acc->map, &acc->user);
    acc->following = 1;
    return 1;
}

void pf__accel_unfollow(pf_accel *acc)
{
    if (!acc || !acc->following) return;
    pf__map_detach(acc->map, &acc->user);
    acc->following = 0;
}
