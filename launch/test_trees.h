// Hand-built trees for the launch tests: hosts, PU os indexes and logical
// indexes as a real machine would have them.
#ifndef RANKMAP_LAUNCH_TEST_TREES_H_
#define RANKMAP_LAUNCH_TEST_TREES_H_

#include "core/model/mapping.h"
#include "launch/job_placement.h"
#include "topology/tree.h"

namespace rankmap::launch::testing {

// A switch over hosts "alpha" and "beta", two PU leaves each; PU os indexes
// interleaved as on many Intel machines: alpha {0, 2}, beta {1, 3}; leaves
// 0..3 are alpha/0, alpha/2, beta/1, beta/3. Logical indexes 0, 1 per host.
topology::Tree TwoHosts();

// Host "gamma" with two core leaves of two hardware threads each: core 0 holds
// PUs {0, 8}, core 1 holds {4, 12}; logical core indexes 0 and 1.
topology::Tree CoreHost();

// PlaceJob that must succeed (the tests' trees all have hosts).
JobPlacement Place(const topology::Tree& tree, const core::Mapping& mapping);

}  // namespace rankmap::launch::testing

#endif  // RANKMAP_LAUNCH_TEST_TREES_H_
