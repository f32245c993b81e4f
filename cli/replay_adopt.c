/* replay_adopt.c - replay's accelerator after edit lines: rebuilt off the frame, adopted at a
 * frame fixed by the edit (pf_batch.h, ADOPTED ACCELERATORS).
 *
 * After an edit the accelerator is stale and AUTO answers by JPS. The frame of the edit copies the
 * cells (pf_accel_rebuild_begin) and a thread builds from the copy while the frames go on; the
 * rebuild is adopted at the first frame run at or after edit frame + N, and that frame joins the
 * thread first, waiting when the build is late. Which frames run on JPS thus depends on the order
 * log and N, never on the machine's speed, and the CSV stays the same for any --workers.
 *
 * One rebuild at a time: edits during a rebuild are not copied by it, so at its frame it is adopted
 * only when the map's cells are those it copied again (its fingerprint), else dropped, and the next
 * rebuild starts from the cells of that frame.
 */
#include <pthread.h>
#include <stdlib.h>
#include "cli.h"
#include "replay_adopt.h"

typedef struct adoption {
    uint64_t copy_frame, frame; /* the frame whose cells the rebuild copied, the frame that adopted it */
    double   wait_ms, build_s;
} adoption;

struct cli_adopt {
    uint64_t          frames;     /* N */
    pf_accel_edits    edits;      /* of the rebuilds */
    const pf_accel   *active;     /* the batch's: the caller's, or `owned` */
    pf_accel         *owned;      /* an adopted rebuild */
    pf_accel         *retire;     /* replaced in this frame's run: destroyed after it */
    /* the rebuild under way */
    int               running;
    pthread_t         th;
    pf_accel_rebuild *rb;
    pf_accel         *built;
    pf_status         built_st;
    double            build_s;
    uint64_t          due, since;
    /* counts */
    uint64_t          rebuilds, dropped, jps_frames, edited_frames;
    double            copy_s, wait_s_max;
    adoption         *log;
    uint32_t          nlog, logcap;
};

static void *build_main(void *p)
{
    cli_adopt *a = p;
    double t0 = cli_now();
    a->built_st = pf_accel_rebuild_run(a->rb, &a->built);
    a->build_s = cli_now() - t0;
    return NULL;
}

cli_adopt *cli_adopt_open(const pf_accel *acc, uint64_t frames, pf_accel_edits edits)
{
    cli_adopt *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->active = acc;
    a->frames = frames;
    a->edits = edits;
    return a;
}

/* Waits for the rebuild under way; its accelerator in a->built (NULL when it failed). */
static double join(cli_adopt *a)
{
    double t0 = cli_now();
    pthread_join(a->th, NULL);
    double waited = cli_now() - t0;
    a->running = 0;
    pf_accel_rebuild_destroy(a->rb);
    a->rb = NULL;
    return waited;
}

int cli_adopt_frame(cli_adopt *a, pf_batch *b, const pf_map *map, uint64_t frame)
{
    if (!a->active) return 1;
    if (a->running && frame >= a->due) {
        double waited = join(a);
        a->wait_s_max = waited > a->wait_s_max ? waited : a->wait_s_max;
        pf_accel *got = a->built;
        a->built = NULL;
        /* following by the diff, it is adopted whatever edits came since its copy: they are its D */
        if (got && (pf_accel_current(got, map) || a->edits == PF_ACCEL_EDITS_CHECK)) {
            pf_status st = pf_batch_adopt_accel(b, got, pf_batch_frame(b));
            if (st != PF_OK) {
                pf_accel_destroy(got);
                cli_error("replay", "frame %llu: cannot adopt the rebuilt accelerator: %s", (unsigned long long)frame,
                          pf_status_str(st));
                return 0;
            }
            if (a->nlog == a->logcap) {
                uint32_t nc = a->logcap ? a->logcap * 2u : 16u;
                adoption *n = realloc(a->log, nc * sizeof *n);
                if (!n) { /* the batch has it: it must live on */
                    a->retire = a->owned;
                    a->owned = got;
                    a->active = got;
                    cli_error("replay", "out of memory");
                    return 0;
                }
                a->log = n;
                a->logcap = nc;
            }
            a->log[a->nlog++] = (adoption){a->since, frame, waited * 1e3, a->build_s};
            a->retire = a->owned; /* the caller's first one stays the caller's */
            a->owned = got;
            a->active = got;
        } else {
            if (!got && a->built_st != PF_OUT_OF_MEMORY)
                cli_error("replay", "warning: frame %llu: the accelerator's rebuild failed: %s", (unsigned long long)frame,
                          pf_status_str(a->built_st));
            pf_accel_destroy(got); /* copied before later edits: stale, and the next one starts now */
            a->dropped++;
        }
    }
    /* frames 0: following by the diff alone, never rebuilt */
    if (!a->running && a->frames && !pf_accel_current(a->active, map)) {
        double t0 = cli_now();
        pf_status st = pf_accel_rebuild_begin(map, &(pf_accel_desc){.edits = a->edits}, &a->rb);
        a->copy_s += cli_now() - t0;
        if (st == PF_OK) {
            a->built = NULL;
            a->built_st = PF_OK;
            if (pthread_create(&a->th, NULL, build_main, a) != 0) {
                pf_accel_rebuild_destroy(a->rb);
                a->rb = NULL;
                cli_error("replay", "cannot start the accelerator's rebuild thread");
                return 0;
            }
            a->running = 1;
            a->rebuilds++;
            a->since = frame;
            a->due = frame + a->frames;
        } else if (st != PF_UNSUPPORTED) { /* unsupported: an edit made the map weighted; it stays stale */
            cli_error("replay", "frame %llu: cannot copy the map for the accelerator's rebuild: %s",
                      (unsigned long long)frame, pf_status_str(st));
            return 0;
        }
    }
    int current = pf_accel_current(a->active, map);
    a->jps_frames += !current && a->edits != PF_ACCEL_EDITS_CHECK;
    a->edited_frames += !current && a->edits == PF_ACCEL_EDITS_CHECK;
    return 1;
}

void cli_adopt_after_run(cli_adopt *a)
{
    pf_accel_destroy(a->retire);
    a->retire = NULL;
}

void cli_adopt_json(FILE *f, const cli_adopt *a)
{
    fprintf(f, ",\"accel_adopt_frames\":%llu,\"accel_rebuilds\":%llu,\"accel_adoptions\":[",
            (unsigned long long)a->frames, (unsigned long long)a->rebuilds);
    for (uint32_t i = 0; i < a->nlog; i++)
        fprintf(f, "%s{\"copy_frame\":%llu,\"frame\":%llu,\"wait_ms\":%.3f,\"build_s\":%.3f}", i ? "," : "",
                (unsigned long long)a->log[i].copy_frame, (unsigned long long)a->log[i].frame, a->log[i].wait_ms,
                a->log[i].build_s);
    fprintf(f,
            "],\"accel_dropped\":%llu,\"accel_jps_frames\":%llu,\"accel_edited_frames\":%llu,\"accel_copy_us\":%.3f,"
            "\"accel_wait_ms_max\":%.3f",
            (unsigned long long)a->dropped, (unsigned long long)a->jps_frames, (unsigned long long)a->edited_frames,
            a->rebuilds ? a->copy_s * 1e6 / (double)a->rebuilds : 0.0, a->wait_s_max * 1e3);
}

void cli_adopt_close(cli_adopt *a)
{
    if (!a) return;
    if (a->running) {
        join(a);
        pf_accel_destroy(a->built);
    }
    pf_accel_destroy(a->retire);
    pf_accel_destroy(a->owned);
    free(a->log);
    free(a);
}
