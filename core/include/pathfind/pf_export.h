/*
 * pf_export.h - PF_API, the mark on every public function declaration.
 *
 * The library is compiled with hidden visibility (-fvisibility=hidden), so a function is exported
 * from the shared library only when its declaration carries PF_API: internal pf__ functions shared
 * between .c files stay out of the dynamic symbol table, cannot be interposed, and cost no PLT
 * indirection inside the library. The static library holds the same objects; hidden symbols there
 * still link normally into a program.
 *
 * Every public header reaches this one through pf_status.h. Define PF_API before including any
 * pathfind header to override it (say, with __declspec(dllimport) for a Windows DLL, which this
 * build does not produce).
 *
 * TIERS. The API has two. The stable tier is everything a header declares unconditionally: from 1.0
 * on it changes only with the major version (a new zero-initialised desc field at the end of a
 * struct, a new enum value with its own number, or a new function is not a change). The
 * experimental tier is declared only where the including code defines PF_EXPERIMENTAL_API before
 * any pathfind header (zstd's ZSTD_STATIC_LINKING_ONLY is the model): its names and structs may
 * change in any minor version, and the headers mark it with "EXPERIMENTAL tier". It is exported
 * from the shared library like the rest. Today: the long-query accelerator (pf_accel.h, whose
 * following of map edits is being designed) and path checks and repairs (pf_repair.h). Without
 * the accelerator, PF_ALGO_AUTO (stable) runs the best search the context has.
 *
 *     #define PF_EXPERIMENTAL_API
 *     #include <pathfind.h>
 *
 * THREAD SAFETY: declarations only.
 */
#ifndef PATHFIND_PF_EXPORT_H
#define PATHFIND_PF_EXPORT_H

#ifndef PF_API
#if defined(__GNUC__) && __GNUC__ >= 4 /* gcc, clang and compatibles */
#define PF_API __attribute__((visibility("default")))
#else
#define PF_API /* other compilers: everything that is not static is exported anyway */
#endif
#endif

#endif
