#include "env/file_reader.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace {

class FileReaderTest : public testing::TestWithParam<bool /*mem*/> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      mem_.reset(NewMemEnv(Env::Default()));
      env_ = mem_.get();
    } else {
      env_ = Env::Default();
    }
    dir_.reset(new test::TempDir(env_, "reader"));
    Random rnd(9);
    data_.resize(3 * 4096 + 123);
    for (char& c : data_) c = static_cast<char>(rnd.Next());
    ASSERT_TRUE(WriteStringToFile(env_, data_, dir_->File("f")).ok());
    direct_.use_direct_reads = true;
  }

  std::unique_ptr<Env> mem_;
  Env* env_ = nullptr;
  std::unique_ptr<test::TempDir> dir_;
  std::string data_;
  EnvOptions direct_;
};

TEST_P(FileReaderTest, RandomAccessAtAnyOffsetThroughDirectIO) {
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(env_->NewRandomAccessFile(dir_->File("f"), &file, direct_).ok());
  ASSERT_TRUE(file->use_direct_io());
  RandomAccessFileReader reader(std::move(file), dir_->File("f"));
  EXPECT_TRUE(reader.use_direct_io());
  Random rnd(3);
  std::string scratch(10000, '\0');
  for (int i = 0; i < 300; i++) {
    const uint64_t offset = rnd.Uniform(static_cast<int>(data_.size()) + 10);
    const size_t n = rnd.Uniform(9000);
    Slice got;
    Status s = reader.Read(offset, n, &got, &scratch[0]);
    ASSERT_TRUE(s.ok()) << s.ToString();
    const std::string expected =
        offset >= data_.size() ? "" : data_.substr(offset, n);
    ASSERT_EQ(expected, got.ToString()) << offset << " " << n;
  }
}

TEST_P(FileReaderTest, SequentialThroughDirectIO) {
  std::unique_ptr<SequentialFile> file;
  ASSERT_TRUE(env_->NewSequentialFile(dir_->File("f"), &file, direct_).ok());
  SequentialFileReader reader(std::move(file), dir_->File("f"));
  std::string scratch(5000, '\0');
  std::string all;
  Slice got;
  ASSERT_TRUE(reader.Read(100, &got, &scratch[0]).ok());
  all.append(got.data(), got.size());
  ASSERT_TRUE(reader.Skip(1000).ok());
  all.append(data_.substr(1100 - 1000, 1000));  // what Skip passed over
  while (true) {
    ASSERT_TRUE(reader.Read(777, &got, &scratch[0]).ok());
    if (got.empty()) break;
    all.append(got.data(), got.size());
  }
  // data[0, 100) + data[100, 1100) (re-added above) + data[1100, end)
  EXPECT_EQ(data_, all);
}

TEST_P(FileReaderTest, BufferedFilesPassStraightThrough) {
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(
      env_->NewRandomAccessFile(dir_->File("f"), &file, EnvOptions()).ok());
  RandomAccessFileReader reader(std::move(file), dir_->File("f"));
  EXPECT_FALSE(reader.use_direct_io());
  char scratch[16];
  Slice got;
  ASSERT_TRUE(reader.Read(5, 10, &got, scratch).ok());
  EXPECT_EQ(data_.substr(5, 10), got.ToString());
}

INSTANTIATE_TEST_SUITE_P(Envs, FileReaderTest, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "mem" : "platform");
                         });

}  // namespace
}  // namespace strata
