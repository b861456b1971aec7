/* rankmap for C programs: the one header a C client includes.
 *
 *   #include <rankmap/rankmap.h>
 *   ...
 *   rankmap_options opts;
 *   rankmap_options_init(&opts);
 *   rankmap_map("tleaf 3 2 100 2 10 2 1", n, xadj, adjncy, adjwgt, NULL,
 *               &opts, mapping, &j, err, sizeof err);
 *
 * Link with `pkg-config --libs rankmap` (or CMake's rankmap::rankmap). The
 * functions and their contracts are in c_api.h.
 */
#ifndef RANKMAP_API_RANKMAP_H_
#define RANKMAP_API_RANKMAP_H_

#include "api/c_api.h"

#endif /* RANKMAP_API_RANKMAP_H_ */
