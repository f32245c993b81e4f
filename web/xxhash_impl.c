/* xxHash's functions for the WebAssembly build, where no libxxhash is linked: the library's sources
 * include <xxhash.h> for declarations only, and this file holds the one definition (xxHash's
 * header-only mode). */
#define XXH_STATIC_LINKING_ONLY
#define XXH_IMPLEMENTATION
#include <xxhash.h>
