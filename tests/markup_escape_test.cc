// Escaping for the HTML report and the JUnit XML.

#include "reporters/markup_escape.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(MarkupEscapeTest, EntitiesForMarkupCharacters) {
  EXPECT_EQ(MarkupEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(MarkupEscape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
}

TEST(MarkupEscapeTest, ControlCharactersSurviveAttributesOrBecomeQuestionMarks) {
  EXPECT_EQ(MarkupEscape("x\ny\tz\r\x01"), "x&#10;y&#9;z&#13;?");
  EXPECT_EQ(MarkupEscape("±"), "±");  // UTF-8 passes through
}

}  // namespace
}  // namespace elevbench
