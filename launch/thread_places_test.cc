#include "launch/thread_places.h"

#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

TEST(ThreadPlacesTest, OnePlacePerLeaf) {
  ThreadPlaces t = ThreadPlacesOf({{4}, {5}, {6}, {7}});
  EXPECT_EQ(t.num_threads, 4);
  EXPECT_EQ(t.places, "{4},{5},{6},{7}");
  EXPECT_EQ(FormatThreadPlaces(t),
            "OMP_NUM_THREADS=4 OMP_PLACES={4},{5},{6},{7} OMP_PROC_BIND=close");
  // Core leaves: a place is the core's hardware threads.
  EXPECT_EQ(ThreadPlacesOf({{0, 32}, {1, 33}}).places, "{0,32},{1,33}");
  EXPECT_EQ(ThreadPlacesOf({{}, {2}}).num_threads, 1);
}

}  // namespace
}  // namespace rankmap::launch
