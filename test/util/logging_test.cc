#include "util/logging.h"

#include <cstdarg>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(LoggingTest, Numbers) {
  EXPECT_EQ("0", NumberToString(0));
  EXPECT_EQ("18446744073709551615",
            NumberToString(std::numeric_limits<uint64_t>::max()));
  std::string s = "n=";
  AppendNumberTo(&s, 42);
  EXPECT_EQ("n=42", s);
}

TEST(LoggingTest, EscapeString) {
  EXPECT_EQ("abc", EscapeString("abc"));
  EXPECT_EQ("a\\x00b\\xff\\x0a", EscapeString(Slice("a\0b\xff\n", 5)));
}

TEST(LoggingTest, ConsumeDecimalNumber) {
  Slice in("12345.log");
  uint64_t v = 0;
  ASSERT_TRUE(ConsumeDecimalNumber(&in, &v));
  EXPECT_EQ(12345u, v);
  EXPECT_EQ(".log", in.ToString());

  Slice max("18446744073709551615");
  ASSERT_TRUE(ConsumeDecimalNumber(&max, &v));
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), v);
  EXPECT_TRUE(max.empty());

  for (const char* bad :
       {"18446744073709551616", "99999999999999999999", "", "x1", "-1"}) {
    Slice b(bad);
    EXPECT_FALSE(ConsumeDecimalNumber(&b, &v)) << bad;
    EXPECT_EQ(std::string(bad), b.ToString());  // nothing consumed
  }
}

TEST(LoggingTest, Basename) {
  EXPECT_STREQ("file.cc", internal::Basename("a/b/file.cc"));
  EXPECT_STREQ("file.cc", internal::Basename("c:\\x\\file.cc"));
  EXPECT_STREQ("file.cc", internal::Basename("file.cc"));
}

// Collects formatted entries.
class CapturingLogger : public Logger {
 public:
  explicit CapturingLogger(InfoLogLevel level) : Logger(level) {}
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char buf[1000];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    lines.emplace_back(buf);
  }
  std::vector<std::string> lines;
};

TEST(LoggingTest, LevelsFilter) {
  auto logger = std::make_shared<CapturingLogger>(WARN_LEVEL);
  Log(INFO_LEVEL, logger, "dropped %d", 1);
  Log(logger, "dropped too");  // INFO
  Log(WARN_LEVEL, logger, "kept %d", 2);
  Log(ERROR_LEVEL, logger.get(), "kept %s", "three");
  ASSERT_EQ(2u, logger->lines.size());
  EXPECT_EQ("kept 2", logger->lines[0]);
  EXPECT_EQ("kept three", logger->lines[1]);

  logger->SetInfoLogLevel(DEBUG_LEVEL);
  Log(logger.get(), "now %s", "visible");
  ASSERT_EQ(3u, logger->lines.size());
  EXPECT_EQ("now visible", logger->lines[2]);

  std::shared_ptr<Logger> none;
  Log(ERROR_LEVEL, none, "no logger: no crash");
}

TEST(LoggingTest, MacrosNameTheSourceLine) {
  auto logger = std::make_shared<CapturingLogger>(INFO_LEVEL);
  const int line = __LINE__ + 1;
  STRATA_LOG_WARN(logger, "value %d", 7);
  STRATA_LOG_DEBUG(logger, "below the level");
  ASSERT_EQ(1u, logger->lines.size());
  EXPECT_EQ("[logging_test.cc:" + std::to_string(line) + "] value 7",
            logger->lines[0]);
}

}  // namespace
}  // namespace strata
