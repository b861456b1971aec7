// librankmap_mpi.so exports the C (rankmap_mpi.h) and C++ (reorder.h)
// interfaces of mpi_bindings/; see front_doors.cc for why they are referenced.
#include "mpi_bindings/rankmap_mpi.h"
#include "mpi_bindings/reorder.h"

namespace rankmap::install {
namespace {

[[gnu::used]] const void* const kMpiFrontDoors[] = {
    reinterpret_cast<const void*>(&rankmap_mpi_reorder),    // rankmap_mpi
    reinterpret_cast<const void*>(&mpi_bindings::Reorder),  // reorder
};

}  // namespace
}  // namespace rankmap::install
