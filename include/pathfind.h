/* pathfind.h - umbrella header: includes every public header of pathfind. */
#ifndef PATHFIND_H
#define PATHFIND_H
#include "pathfind/pf_version.h"
#include "pathfind/pf_export.h"
#include "pathfind/pf_status.h"
#include "pathfind/pf_alloc.h"
#include "pathfind/pf_parallel.h"
#include "pathfind/pf_map.h"
#include "pathfind/pf_grid.h"
#include "pathfind/pf_graph.h"
#include "pathfind/pf_scen.h"
#include "pathfind/pf_search.h"
#include "pathfind/pf_anyangle.h"
#include "pathfind/pf_repair.h"
#include "pathfind/pf_flow.h"
#include "pathfind/pf_jps.h"
#include "pathfind/pf_accel.h"
#include "pathfind/pf_batch.h"
#include "pathfind/pf_table.h"
#include "pathfind/pf_generic.h"
#include "pathfind/pf_goap.h"
#include "pathfind/pf_pdb.h"
#endif
