#include "core/model/slot_classes.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(SlotClassesTest, ErrorsNameWhatDoesNotFit) {
  const topology::Tree t = testing::MakeTleaf("1 4 1");
  absl::StatusOr<SlotClasses> c = ClassesFromSpeeds(
      std::vector<double>{3, 1}, std::vector<double>{1, 1, 2, 2});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("process 0 needs speed 3"),
            std::string::npos)
      << c.status();
  c = ClassesFromSpeeds(std::vector<double>{2, 2, 2},
                        std::vector<double>{1, 1, 2, 2});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->of_process, (std::vector<int32_t>{1, 1, 1}));
  const absl::Status s = ValidateSlotClasses(t, 3, *c);
  EXPECT_NE(s.message().find("3 processes need class 1 but the topology has 2"),
            std::string::npos)
      << s;
}

TEST(SlotClassesTest, ClassesForTreeUseTheLeafSpeeds) {
  const topology::Tree t =
      testing::MakeTleaf("1 4 1").WithSpeeds({1, 1, 4, 4}).value();
  absl::StatusOr<SlotClasses> c =
      ClassesForTree(t, std::vector<double>{4, 1, 4});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->of_process, (std::vector<int32_t>{1, 0, 1}));
  EXPECT_EQ(c->of_leaf, (std::vector<int32_t>{0, 0, 1, 1}));
  c = ClassesForTree(t, std::vector<double>{4, 4, 4});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "speeds: 3 processes need speed 4 but the topology has 2 slots of "
            "that speed");
  c = ClassesForTree(t, std::vector<double>{2});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("process 0 needs speed 2"),
            std::string::npos)
      << c.status();
}

TEST(SlotClassesTest, RepairMovesMisplacedProcessesToTheNearestFreeLeaf) {
  // tleaf 2 2 10 2 1: leaves 0,1 | 2,3. Classes: leaves 0,1 class 0, leaves
  // 2,3 class 1. Process 0 (class 1) sits on leaf 0; process 1 (class 0) on
  // leaf 3; process 2 (any) on leaf 1.
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  SlotClasses c{{1, 0, -1}, {0, 0, 1, 1}};
  Mapping m = {0, 3, 1};
  const graphs::CommGraph g = testing::MakeGrid2D(1, 3);
  RepairToClasses(t, g, c, &m);
  EXPECT_TRUE(CheckClasses(c, m).ok());
  EXPECT_TRUE(ValidateMapping(t, 3, m).ok());
  EXPECT_EQ(m[2], 1);  // kept
  EXPECT_EQ(m[1], 0);  // the free class-0 leaf
  EXPECT_EQ(m[0], 2);  // the nearest free class-1 leaf to leaf 0
}

}  // namespace
}  // namespace rankmap::core
