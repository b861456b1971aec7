#include "base/xml_escape.h"

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(XmlEscape, EveryMarkupCharacter) {
  EXPECT_EQ(XmlEscape("a<b & \"c\" > 'd'"),
            "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;");
  EXPECT_EQ(XmlEscape(""), "");
  EXPECT_EQ(XmlEscape("node-12.lan"), "node-12.lan");
}

}  // namespace
}  // namespace rankmap::base
