#include "core/parallel/joined_thread.h"

#include <new>
#include <stdexcept>

#include "gtest/gtest.h"

namespace rankmap::core {
namespace {

TEST(JoinedThreadTest, RunsAndJoins) {
  int x = 0;
  JoinedThread t([&] { x = 7; });
  t.Join();
  EXPECT_EQ(x, 7);
  EXPECT_FALSE(t.joinable());
  t.Join();  // a second Join is a no-op
}

TEST(JoinedThreadTest, HandsTheWorkersExceptionToJoin) {
  JoinedThread t([] { throw std::bad_alloc(); });
  EXPECT_THROW(t.Join(), std::bad_alloc);
}

TEST(JoinedThreadTest, IsJoinedWhenTheCallerUnwinds) {
  int x = 0;
  try {
    JoinedThread t([&] { x = 3; });
    throw std::runtime_error("caller fails while the worker runs");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(x, 3);  // joined by the destructor, not terminated
}

}  // namespace
}  // namespace rankmap::core
