#include "env/env_logger.h"

#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

class EnvLoggerTest : public testing::Test {
 protected:
  EnvLoggerTest() : mem_(NewMemEnv(Env::Default())), dir_(mem_.get()) {}

  std::vector<std::string> Lines() {
    std::string data;
    EXPECT_TRUE(ReadFileToString(mem_.get(), dir_.File("LOG"), &data).ok());
    std::vector<std::string> lines;
    std::istringstream in(data);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  std::unique_ptr<Env> mem_;
  test::TempDir dir_;
};

TEST_F(EnvLoggerTest, LinesCarryTimeAndThread) {
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(NewEnvLogger(mem_.get(), dir_.File("LOG"), &logger).ok());
  Log(logger, "hello %d", 42);
  Log(logger, "already ends in newline\n");
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(2u, lines.size());
  const std::regex line(
      R"(\d{4}/\d\d/\d\d-\d\d:\d\d:\d\d\.\d{6} \d+ hello 42)");
  EXPECT_TRUE(std::regex_match(lines[0], line)) << lines[0];
  EXPECT_NE(std::string::npos, lines[1].find(" already ends in newline"));
}

TEST_F(EnvLoggerTest, LongEntriesAreNotCut) {
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(NewEnvLogger(mem_.get(), dir_.File("LOG"), &logger).ok());
  const std::string big(5000, 'z');
  Log(logger, "big %s end", big.c_str());
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(1u, lines.size());
  EXPECT_NE(std::string::npos, lines[0].find("big " + big + " end"));
}

TEST_F(EnvLoggerTest, ConcurrentEntriesStayWhole) {
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(NewEnvLogger(mem_.get(), dir_.File("LOG"), &logger).ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; i++)
        Log(logger, "thread %d entry %03d <end>", t, i);
    });
  }
  for (auto& th : threads) th.join();
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(800u, lines.size());
  for (const std::string& l : lines) {
    ASSERT_EQ(l.size() - 5, l.find("<end>")) << l;
  }
}

TEST_F(EnvLoggerTest, AfterCloseNothingIsWritten) {
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(NewEnvLogger(mem_.get(), dir_.File("LOG"), &logger).ok());
  Log(logger, "before");
  ASSERT_TRUE(logger->Close().ok());
  Log(logger, "after");
  EXPECT_TRUE(logger->Close().ok());
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(1u, lines.size());
  EXPECT_NE(std::string::npos, lines[0].find("before"));
}

TEST_F(EnvLoggerTest, MissingDirectoryIsReported) {
  std::shared_ptr<Logger> logger;
  Status s = NewEnvLogger(mem_.get(), dir_.File("none/LOG"), &logger);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, logger);
}

}  // namespace
}  // namespace strata
