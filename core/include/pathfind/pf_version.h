/* pf_version.h - library version (CMake reads it from here). */
#ifndef PATHFIND_PF_VERSION_H
#define PATHFIND_PF_VERSION_H
#define PF_VERSION_MAJOR 0
#define PF_VERSION_MINOR 1
#define PF_VERSION_PATCH 0
#define PF_VERSION_STRING "0.1.0"
#endif
