#include "test/util/fault_injection_env.h"

#include <memory>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "strata/io_status.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

class FaultInjectionEnvTest : public testing::Test {
 protected:
  FaultInjectionEnvTest()
      : base_(NewMemEnv(Env::Default())),
        fault_(base_.get()),
        dir_(base_.get()) {}

  std::string Contents(const std::string& name) {
    std::string data;
    Status s = ReadFileToString(base_.get(), dir_.File(name), &data);
    return s.ok() ? data : "<" + s.ToString() + ">";
  }

  std::unique_ptr<Env> base_;
  FaultInjectionEnv fault_;
  TempDir dir_;
};

TEST_F(FaultInjectionEnvTest, DropUnsyncedDataKeepsWhatWasSynced) {
  std::unique_ptr<WritableFile> a, b;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("a"), &a, EnvOptions()).ok());
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("b"), &b, EnvOptions()).ok());
  ASSERT_TRUE(a->Append("synced").ok());
  ASSERT_TRUE(a->Sync().ok());
  ASSERT_TRUE(a->Append("-lost").ok());
  ASSERT_TRUE(b->Append("never synced").ok());
  ASSERT_TRUE(a->Close().ok());
  ASSERT_TRUE(b->Close().ok());
  EXPECT_EQ("synced-lost", Contents("a"));

  ASSERT_TRUE(fault_.DropUnsyncedFileData().ok());
  EXPECT_EQ("synced", Contents("a"));
  EXPECT_EQ("", Contents("b"));
}

TEST_F(FaultInjectionEnvTest, FilesNotInASyncedDirectoryDisappear) {
  ASSERT_TRUE(WriteStringToFile(&fault_, "x", dir_.File("early"), true).ok());
  std::unique_ptr<Directory> d;
  ASSERT_TRUE(fault_.NewDirectory(dir_.path(), &d).ok());
  ASSERT_TRUE(d->Fsync().ok());
  ASSERT_TRUE(WriteStringToFile(&fault_, "y", dir_.File("late"), true).ok());
  ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
  EXPECT_EQ("x", Contents("early"));
  EXPECT_TRUE(base_->FileExists(dir_.File("late")).IsNotFound());
}

TEST_F(FaultInjectionEnvTest, FailNthIOFailsOnlyThatOne) {
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("f"), &f, EnvOptions()).ok());
  fault_.FailNthIO(3, Status::IOError("boom"));
  EXPECT_TRUE(f->Append("1").ok());
  EXPECT_TRUE(f->Append("2").ok());
  Status s = f->Append("3");
  EXPECT_TRUE(s.IsIOError());
  EXPECT_EQ("IO error: " + dir_.File("f") + ": append: boom", s.ToString());
  EXPECT_TRUE(f->Append("4").ok());
  ASSERT_TRUE(f->Close().ok());
  EXPECT_EQ("124", Contents("f"));
}

TEST_F(FaultInjectionEnvTest, FailAllByKind) {
  ASSERT_TRUE(WriteStringToFile(base_.get(), "data", dir_.File("r")).ok());
  fault_.FailAll(IOKind::kRead, Status::Corruption("bad sector"));
  std::unique_ptr<SequentialFile> r;
  ASSERT_TRUE(fault_.NewSequentialFile(dir_.File("r"), &r, EnvOptions()).ok());
  char scratch[8];
  Slice got;
  for (int i = 0; i < 3; i++) {
    Status s = r->Read(4, &got, scratch);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
  // Other kinds are unaffected.
  EXPECT_TRUE(WriteStringToFile(&fault_, "w", dir_.File("w")).ok());
  fault_.FailAll(IOKind::kRename, Status::NoSpace());
  EXPECT_TRUE(fault_.RenameFile(dir_.File("w"), dir_.File("w2")).IsNoSpace());
  fault_.FailAll(IOKind::kOpen, Status::PathNotFound());
  EXPECT_TRUE(fault_.NewSequentialFile(dir_.File("r"), &r, EnvOptions())
                  .IsPathNotFound());
  fault_.ClearFailures();
  ASSERT_TRUE(fault_.NewSequentialFile(dir_.File("r"), &r, EnvOptions()).ok());
  ASSERT_TRUE(r->Read(4, &got, scratch).ok());
  EXPECT_EQ("data", got.ToString());
  EXPECT_TRUE(fault_.RenameFile(dir_.File("w"), dir_.File("w2")).ok());
}

TEST_F(FaultInjectionEnvTest, InactiveFileSystemRejectsWrites) {
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("f"), &f, EnvOptions()).ok());
  fault_.SetFilesystemActive(false);
  EXPECT_TRUE(f->Append("x").IsIOError());
  EXPECT_TRUE(f->Sync().IsIOError());
  fault_.SetFilesystemActive(true);
  EXPECT_TRUE(f->Append("y").ok());
  const uint64_t before = fault_.io_count();
  EXPECT_TRUE(f->Sync().ok());
  EXPECT_EQ(before + 1, fault_.io_count());
}

TEST_F(FaultInjectionEnvTest, UnsyncedRenameOverADurableFileIsUndone) {
  // CURRENT is durable: written, synced, its directory synced.
  ASSERT_TRUE(
      WriteStringToFile(&fault_, "old", dir_.File("CURRENT"), true).ok());
  std::unique_ptr<Directory> d;
  ASSERT_TRUE(fault_.NewDirectory(dir_.path(), &d).ok());
  ASSERT_TRUE(d->Fsync().ok());
  // A new version is renamed over it, but the directory is not synced.
  ASSERT_TRUE(
      WriteStringToFile(&fault_, "new", dir_.File("CURRENT.tmp"), true).ok());
  ASSERT_TRUE(
      fault_.RenameFile(dir_.File("CURRENT.tmp"), dir_.File("CURRENT")).ok());
  EXPECT_EQ("new", Contents("CURRENT"));
  // And replaced once more, still unsynced.
  ASSERT_TRUE(
      WriteStringToFile(&fault_, "newer", dir_.File("CURRENT.tmp"), true).ok());
  ASSERT_TRUE(
      fault_.RenameFile(dir_.File("CURRENT.tmp"), dir_.File("CURRENT")).ok());
  EXPECT_EQ("newer", Contents("CURRENT"));
  ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
  // Power lost before the rename was durable: the old version, not nothing.
  EXPECT_EQ("old", Contents("CURRENT"));
  EXPECT_TRUE(base_->FileExists(dir_.File("CURRENT.tmp")).IsNotFound());
}

TEST_F(FaultInjectionEnvTest, UnsyncedRenameOfADurableFileRestoresItsName) {
  ASSERT_TRUE(WriteStringToFile(&fault_, "data", dir_.File("a"), true).ok());
  std::unique_ptr<Directory> d;
  ASSERT_TRUE(fault_.NewDirectory(dir_.path(), &d).ok());
  ASSERT_TRUE(d->Fsync().ok());
  ASSERT_TRUE(fault_.RenameFile(dir_.File("a"), dir_.File("b")).ok());
  ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
  EXPECT_EQ("data", Contents("a"));
  EXPECT_TRUE(base_->FileExists(dir_.File("b")).IsNotFound());

  // Once the directory is synced the rename stays.
  ASSERT_TRUE(fault_.RenameFile(dir_.File("a"), dir_.File("b")).ok());
  ASSERT_TRUE(d->Fsync().ok());
  ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
  EXPECT_EQ("data", Contents("b"));
  EXPECT_TRUE(base_->FileExists(dir_.File("a")).IsNotFound());
}

TEST_F(FaultInjectionEnvTest, FilesDeletedBehindItsBackStayDeleted) {
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("gone"), &f, EnvOptions()).ok());
  ASSERT_TRUE(f->Append("x").ok());
  ASSERT_TRUE(f->Close().ok());
  ASSERT_TRUE(base_->RemoveFile(dir_.File("gone")).ok());
  ASSERT_TRUE(fault_.DropUnsyncedFileData().ok());
  EXPECT_TRUE(base_->FileExists(dir_.File("gone")).IsNotFound());
}

TEST_F(FaultInjectionEnvTest, InjectedStatusesKeepTheirCode) {
  const Status kinds[] = {Status::TryAgain("t"),
                          Status::Expired("e"),
                          Status::ShutdownInProgress("s"),
                          Status::MergeInProgress("m"),
                          Status::Busy("b"),
                          Status::TimedOut("o"),
                          Status::Incomplete("i")};
  for (const Status& k : kinds) {
    Status s = StatusForPath(k, "/p", "op");
    EXPECT_EQ(k.code(), s.code()) << k.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("/p: op")) << s.ToString();
  }
}

TEST_F(FaultInjectionEnvTest, InjectedStatusesKeepTheRetryableMark) {
  IOStatus flaky = IOStatus::IOError("flaky");
  flaky.SetRetryable(true);
  Status s = StatusForPath(flaky, "/p", "op");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(status_to_io_status(std::move(s)).GetRetryable());
  IOStatus full = IOStatus::NoSpace("full");
  full.SetRetryable(true);
  s = StatusForPath(full, "/p", "op");
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_TRUE(status_to_io_status(std::move(s)).GetRetryable());
  EXPECT_FALSE(
      status_to_io_status(StatusForPath(Status::IOError("x"), "/p", "op"))
          .GetRetryable());
}

TEST_F(FaultInjectionEnvTest, RenameCarriesTheSyncState) {
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("tmp"), &f, EnvOptions()).ok());
  ASSERT_TRUE(f->Append("durable").ok());
  ASSERT_TRUE(f->Sync().ok());
  ASSERT_TRUE(f->Append("+not").ok());
  ASSERT_TRUE(f->Close().ok());
  ASSERT_TRUE(fault_.RenameFile(dir_.File("tmp"), dir_.File("final")).ok());
  ASSERT_TRUE(fault_.DropUnsyncedFileData().ok());
  EXPECT_EQ("durable", Contents("final"));
}

}  // namespace
}  // namespace test
}  // namespace strata
