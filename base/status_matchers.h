// gMock matchers for absl::Status and absl::StatusOr, which Debian's abseil does not
// ship. Test-only (//base:status_matchers is testonly). A failure prints the status
// (code and message), not just "false".
//
//   EXPECT_THAT(builder.AddEdge(0, 1, 2.0), IsOk());
//   EXPECT_THAT(ReadGraph(path), IsOkAndHolds(Property(&CommGraph::num_vertices, 4)));
//   EXPECT_THAT(ReadGraph(bad), StatusIs(absl::StatusCode::kInvalidArgument,
//                                        HasSubstr("line 3")));
//   EXPECT_THAT(ReadGraph(bad), Not(IsOk()));
//
// Each matcher accepts an absl::Status or an absl::StatusOr<T>.
#ifndef RANKMAP_BASE_STATUS_MATCHERS_H_
#define RANKMAP_BASE_STATUS_MATCHERS_H_

#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace rankmap::base {
namespace internal_status {

inline const absl::Status& GetStatus(const absl::Status& status) {
  return status;
}

template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

class IsOkMatcher {
 public:
  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual,
                       ::testing::MatchResultListener* listener) const {
    const absl::Status& status = GetStatus(actual);
    if (!status.ok()) *listener << "which has status " << status;
    return status.ok();
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

// The matcher for one StatusOr type; IsOkAndHoldsMatcher makes one per use.
template <typename StatusOrType>
class IsOkAndHoldsImpl : public ::testing::MatcherInterface<StatusOrType> {
 public:
  using Value = typename std::remove_cv_t<
      std::remove_reference_t<StatusOrType>>::value_type;

  template <typename InnerMatcher>
  explicit IsOkAndHoldsImpl(InnerMatcher&& inner)
      : inner_(::testing::SafeMatcherCast<const Value&>(
            std::forward<InnerMatcher>(inner))) {}

  void DescribeTo(std::ostream* os) const override {
    *os << "is OK and has a value that ";
    inner_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const override {
    *os << "is not OK or has a value that ";
    inner_.DescribeNegationTo(os);
  }
  bool MatchAndExplain(
      StatusOrType actual,
      ::testing::MatchResultListener* listener) const override {
    if (!actual.ok()) {
      *listener << "which has status " << actual.status();
      return false;
    }
    ::testing::StringMatchResultListener inner_listener;
    const bool matches = inner_.MatchAndExplain(*actual, &inner_listener);
    *listener << "which holds " << ::testing::PrintToString(*actual);
    if (!inner_listener.str().empty()) *listener << ", " << inner_listener.str();
    return matches;
  }

 private:
  const ::testing::Matcher<const Value&> inner_;
};

template <typename InnerMatcher>
class IsOkAndHoldsMatcher {
 public:
  explicit IsOkAndHoldsMatcher(InnerMatcher inner) : inner_(std::move(inner)) {}

  template <typename StatusOrType>
  operator ::testing::Matcher<StatusOrType>() const {  // NOLINT: implicit
    return ::testing::Matcher<StatusOrType>(
        new IsOkAndHoldsImpl<const StatusOrType&>(inner_));
  }

 private:
  const InnerMatcher inner_;
};

class StatusIsMatcher {
 public:
  StatusIsMatcher(::testing::Matcher<absl::StatusCode> code,
                  ::testing::Matcher<const std::string&> message)
      : code_(std::move(code)), message_(std::move(message)) {}

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual,
                       ::testing::MatchResultListener* listener) const {
    const absl::Status& status = GetStatus(actual);
    *listener << "which has status " << status;
    return code_.Matches(status.code()) &&
           message_.Matches(std::string(status.message()));
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has a status code that ";
    code_.DescribeTo(os);
    *os << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "has a status code that ";
    code_.DescribeNegationTo(os);
    *os << " or a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  const ::testing::Matcher<absl::StatusCode> code_;
  const ::testing::Matcher<const std::string&> message_;
};

}  // namespace internal_status

// Matches an OK absl::Status or absl::StatusOr<T>.
inline ::testing::PolymorphicMatcher<internal_status::IsOkMatcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(internal_status::IsOkMatcher());
}

// Matches an OK absl::StatusOr<T> whose value matches `inner` (a matcher or a
// value to compare with ==).
template <typename InnerMatcher>
internal_status::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>> IsOkAndHolds(
    InnerMatcher&& inner) {
  return internal_status::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>>(
      std::forward<InnerMatcher>(inner));
}

// Matches a status whose code matches `code` and whose message matches
// `message` (matchers or values; the message as a std::string).
template <typename CodeMatcher, typename MessageMatcher>
::testing::PolymorphicMatcher<internal_status::StatusIsMatcher> StatusIs(
    CodeMatcher&& code, MessageMatcher&& message) {
  return ::testing::MakePolymorphicMatcher(internal_status::StatusIsMatcher(
      ::testing::MatcherCast<absl::StatusCode>(std::forward<CodeMatcher>(code)),
      ::testing::MatcherCast<const std::string&>(
          std::forward<MessageMatcher>(message))));
}

// Matches a status whose code matches `code`, whatever its message.
template <typename CodeMatcher>
::testing::PolymorphicMatcher<internal_status::StatusIsMatcher> StatusIs(
    CodeMatcher&& code) {
  return StatusIs(std::forward<CodeMatcher>(code), ::testing::_);
}

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_STATUS_MATCHERS_H_
