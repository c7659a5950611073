#include "test/util/fault_injection_env.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

// Every kind of I/O the Env and its files do is counted under its kind and
// fails when that kind is failed — and succeeds once failures are cleared.
TEST_F(FaultInjectionEnvTest, EveryKindIsCountedAndCanFail) {
  ASSERT_TRUE(WriteStringToFile(base_.get(), "data", dir_.File("r")).ok());
  std::unique_ptr<WritableFile> w;
  ASSERT_TRUE(fault_.NewWritableFile(dir_.File("w"), &w, EnvOptions()).ok());
  ASSERT_TRUE(w->Append("0123456789").ok());
  std::unique_ptr<SequentialFile> seq;
  ASSERT_TRUE(
      fault_.NewSequentialFile(dir_.File("r"), &seq, EnvOptions()).ok());
  std::unique_ptr<RandomAccessFile> ra;
  ASSERT_TRUE(
      fault_.NewRandomAccessFile(dir_.File("r"), &ra, EnvOptions()).ok());
  std::unique_ptr<RandomRWFile> rw;
  ASSERT_TRUE(fault_.NewRandomRWFile(dir_.File("rw"), &rw, EnvOptions()).ok());
  std::unique_ptr<Directory> dir;
  ASSERT_TRUE(fault_.NewDirectory(dir_.path(), &dir).ok());
  char scratch[16];
  Slice got;
  uint64_t number = 0;
  bool flag = false;
  std::vector<std::string> names;

  struct Case {
    IOKind kind;
    const char* what;
    std::function<Status()> op;
  };
  const std::string r = dir_.File("r");
  const std::string w_name = dir_.File("w");
  const std::vector<Case> cases = {
      {IOKind::kOpen, "sequential",
       [&] {
         std::unique_ptr<SequentialFile> f;
         return fault_.NewSequentialFile(r, &f, EnvOptions());
       }},
      {IOKind::kOpen, "random access",
       [&] {
         std::unique_ptr<RandomAccessFile> f;
         return fault_.NewRandomAccessFile(r, &f, EnvOptions());
       }},
      {IOKind::kOpen, "writable",
       [&] {
         std::unique_ptr<WritableFile> f;
         return fault_.NewWritableFile(dir_.File("w2"), &f, EnvOptions());
       }},
      {IOKind::kOpen, "reopen writable",
       [&] {
         std::unique_ptr<WritableFile> f;
         return fault_.ReopenWritableFile(dir_.File("w2"), &f, EnvOptions());
       }},
      {IOKind::kOpen, "random rw",
       [&] {
         std::unique_ptr<RandomRWFile> f;
         return fault_.NewRandomRWFile(dir_.File("rw"), &f, EnvOptions());
       }},
      {IOKind::kOpen, "directory",
       [&] {
         std::unique_ptr<Directory> d;
         return fault_.NewDirectory(dir_.path(), &d);
       }},
      {IOKind::kOpen, "logger",
       [&] {
         std::shared_ptr<Logger> logger;
         return fault_.NewLogger(dir_.File("LOG"), &logger);
       }},
      {IOKind::kRead, "sequential",
       [&] { return seq->Read(1, &got, scratch); }},
      {IOKind::kRead, "random access",
       [&] { return ra->Read(0, 4, &got, scratch); }},
      {IOKind::kRead, "random rw",
       [&] { return rw->Read(0, 1, &got, scratch); }},
      {IOKind::kWrite, "append", [&] { return w->Append("x"); }},
      {IOKind::kWrite, "flush", [&] { return w->Flush(); }},
      {IOKind::kWrite, "random rw", [&] { return rw->Write(0, "y"); }},
      {IOKind::kSync, "sync", [&] { return w->Sync(); }},
      {IOKind::kSync, "fsync", [&] { return w->Fsync(); }},
      {IOKind::kSync, "random rw", [&] { return rw->Sync(); }},
      {IOKind::kDirSync, "fsync", [&] { return dir->Fsync(); }},
      {IOKind::kRangeSync, "range sync", [&] { return w->RangeSync(0, 4); }},
      {IOKind::kTruncate, "truncate", [&] { return w->Truncate(8); }},
      {IOKind::kAllocate, "allocate", [&] { return w->Allocate(0, 4096); }},
      {IOKind::kRename, "rename",
       [&] {
         Status s = fault_.RenameFile(r, dir_.File("r2"));
         if (s.ok()) {
           EXPECT_TRUE(base_->RenameFile(dir_.File("r2"), r).ok());
         }
         return s;
       }},
      {IOKind::kLink, "link",
       [&] {
         Status s = fault_.LinkFile(r, dir_.File("r3"));
         if (s.ok()) {
           EXPECT_TRUE(base_->RemoveFile(dir_.File("r3")).ok());
         }
         return s;
       }},
      {IOKind::kDelete, "file",
       [&] {
         EXPECT_TRUE(WriteStringToFile(base_.get(), "", dir_.File("d")).ok());
         return fault_.RemoveFile(dir_.File("d"));
       }},
      {IOKind::kDelete, "directory",
       [&] {
         EXPECT_TRUE(base_->CreateDirIfMissing(dir_.File("sub")).ok());
         return fault_.RemoveDir(dir_.File("sub"));
       }},
      {IOKind::kCreateDir, "create",
       [&] {
         Status s = fault_.CreateDir(dir_.File("made"));
         if (s.ok()) {
           EXPECT_TRUE(base_->RemoveDir(dir_.File("made")).ok());
         }
         return s;
       }},
      {IOKind::kCreateDir, "if missing",
       [&] { return fault_.CreateDirIfMissing(dir_.File("made2")); }},
      {IOKind::kLock, "lock",
       [&] {
         FileLock* lock = nullptr;
         Status s = fault_.LockFile(dir_.File("LOCK"), &lock);
         if (s.ok()) {
           EXPECT_TRUE(fault_.UnlockFile(lock).ok());
         }
         return s;
       }},
      {IOKind::kStat, "exists", [&] { return fault_.FileExists(r); }},
      {IOKind::kStat, "size", [&] { return fault_.GetFileSize(r, &number); }},
      {IOKind::kStat, "mtime",
       [&] { return fault_.GetFileModificationTime(r, &number); }},
      {IOKind::kStat, "is directory",
       [&] { return fault_.IsDirectory(dir_.path(), &flag); }},
      {IOKind::kStat, "free space",
       [&] { return fault_.GetFreeDiskSpace(dir_.path(), &number); }},
      {IOKind::kList, "children",
       [&] { return fault_.GetChildren(dir_.path(), &names); }},
  };
  std::set<IOKind> covered;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(IOKindName(c.kind)) + " / " + c.what);
    covered.insert(c.kind);
    fault_.FailAll(c.kind, Status::NoSpace("injected"));
    fault_.RecordIOs(true);
    Status s = c.op();
    const std::vector<IOEvent> ios = fault_.TakeRecordedIOs();
    fault_.RecordIOs(false);
    EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
    ASSERT_EQ(1u, ios.size());
    EXPECT_EQ(c.kind, ios[0].kind);
    // Every other kind failing leaves it alone.
    fault_.ClearFailures();
    for (int k = 0; k < static_cast<int>(IOKind::kNumKinds); k++) {
      if (k != static_cast<int>(c.kind)) {
        fault_.FailAll(static_cast<IOKind>(k), Status::IOError("other"));
      }
    }
    s = c.op();
    // (An in-memory file system cannot tell its free space.)
    EXPECT_TRUE(s.ok() || s.IsNotSupported()) << s.ToString();
    fault_.ClearFailures();
  }
  // Closing, once per file: a failed close still closes.
  covered.insert(IOKind::kClose);
  fault_.FailAll(IOKind::kClose, Status::IOError("injected"));
  EXPECT_TRUE(w->Close().IsIOError());
  EXPECT_TRUE(w->Close().ok());  // once
  EXPECT_TRUE(rw->Close().IsIOError());
  EXPECT_TRUE(dir->Close().IsIOError());
  fault_.ClearFailures();
  EXPECT_EQ(static_cast<size_t>(IOKind::kNumKinds), covered.size());
}

TEST_F(FaultInjectionEnvTest, InactiveFileSystemChangesNoName) {
  ASSERT_TRUE(WriteStringToFile(&fault_, "x", dir_.File("f"), true).ok());
  fault_.SetFilesystemActive(false);
  EXPECT_TRUE(fault_.RemoveFile(dir_.File("f")).IsIOError());
  EXPECT_TRUE(fault_.RenameFile(dir_.File("f"), dir_.File("g")).IsIOError());
  EXPECT_TRUE(fault_.LinkFile(dir_.File("f"), dir_.File("h")).IsIOError());
  std::unique_ptr<WritableFile> w;
  EXPECT_TRUE(
      fault_.NewWritableFile(dir_.File("n"), &w, EnvOptions()).IsIOError());
  fault_.SetFilesystemActive(true);
  EXPECT_EQ("x", Contents("f"));
  EXPECT_TRUE(base_->FileExists(dir_.File("g")).IsNotFound());
  EXPECT_TRUE(base_->FileExists(dir_.File("h")).IsNotFound());
  EXPECT_TRUE(base_->FileExists(dir_.File("n")).IsNotFound());
}

// Runs a hook inside every file sync and directory fsync, after the
// FaultInjectionEnv above it has let the call through: the moment a power
// loss can begin while a sync is running.
class SyncHookEnv : public EnvWrapper {
 public:
  explicit SyncHookEnv(Env* target) : EnvWrapper(target) {}

  std::function<void()> hook;

  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    Status s = target()->NewWritableFile(f, r, options);
    if (s.ok()) r->reset(new File(std::move(*r), this));
    return s;
  }
  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    Status s = target()->NewDirectory(name, result);
    if (s.ok()) result->reset(new Dir(std::move(*result), this));
    return s;
  }

 private:
  void RunHook() {
    if (hook) hook();
  }

  class File : public WritableFile {
   public:
    File(std::unique_ptr<WritableFile> t, SyncHookEnv* env)
        : t_(std::move(t)), env_(env) {}
    Status Append(const Slice& data) override { return t_->Append(data); }
    Status Close() override { return t_->Close(); }
    Status Flush() override { return t_->Flush(); }
    Status Sync() override {
      env_->RunHook();
      return t_->Sync();
    }
    uint64_t GetFileSize() override { return t_->GetFileSize(); }

   private:
    std::unique_ptr<WritableFile> t_;
    SyncHookEnv* const env_;
  };

  class Dir : public Directory {
   public:
    Dir(std::unique_ptr<Directory> t, SyncHookEnv* env)
        : t_(std::move(t)), env_(env) {}
    Status Fsync() override {
      env_->RunHook();
      return t_->Fsync();
    }

   private:
    std::unique_ptr<Directory> t_;
    SyncHookEnv* const env_;
  };
};

// A sync still running when the power loss begins must not report success:
// the loss keeps only what was synced before it began, and a caller told
// "durable" would act on it (a compaction deleting its inputs once its
// MANIFEST edit is synced; that edit then lost).
TEST_F(FaultInjectionEnvTest, SyncRunningWhenThePowerLossBeginsFails) {
  SyncHookEnv hooked(base_.get());
  FaultInjectionEnv fault(&hooked);
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(fault.NewWritableFile(dir_.File("f"), &f, EnvOptions()).ok());
  ASSERT_TRUE(f->Append("synced").ok());
  ASSERT_TRUE(f->Sync().ok());
  ASSERT_TRUE(f->Append("-in-flight").ok());
  hooked.hook = [&] {
    fault.SetFilesystemActive(false);
    ASSERT_TRUE(fault.DropUnsyncedFileData().ok());
  };
  EXPECT_TRUE(f->Sync().IsIOError());
  hooked.hook = nullptr;
  EXPECT_EQ("synced", Contents("f"));
  EXPECT_EQ(6u, fault.SyncedSize(dir_.File("f")));
}

TEST_F(FaultInjectionEnvTest, DirectorySyncRunningWhenThePowerLossBeginsFails) {
  SyncHookEnv hooked(base_.get());
  FaultInjectionEnv fault(&hooked);
  ASSERT_TRUE(WriteStringToFile(&fault, "x", dir_.File("new"), true).ok());
  std::unique_ptr<Directory> d;
  ASSERT_TRUE(fault.NewDirectory(dir_.path(), &d).ok());
  hooked.hook = [&] {
    fault.SetFilesystemActive(false);
    ASSERT_TRUE(fault.DropUnsyncedFileData().ok());
    ASSERT_TRUE(fault.DeleteFilesCreatedAfterLastDirSync().ok());
  };
  EXPECT_TRUE(d->Fsync().IsIOError());
  hooked.hook = nullptr;
  EXPECT_TRUE(base_->FileExists(dir_.File("new")).IsNotFound());
}

TEST_F(FaultInjectionEnvTest, RecordedIOsNameTheNthOperation) {
  fault_.RecordIOs(true);
  ASSERT_TRUE(WriteStringToFile(&fault_, "x", dir_.File("f"), true).ok());
  ASSERT_TRUE(fault_.RenameFile(dir_.File("f"), dir_.File("g")).ok());
  const std::vector<IOEvent> ios = fault_.TakeRecordedIOs();
  ASSERT_EQ(5u, ios.size());  // open, append, sync, close, rename
  EXPECT_EQ(IOKind::kOpen, ios[0].kind);
  EXPECT_EQ(IOKind::kWrite, ios[1].kind);
  EXPECT_EQ(IOKind::kSync, ios[2].kind);
  EXPECT_EQ(IOKind::kClose, ios[3].kind);
  EXPECT_EQ(IOKind::kRename, ios[4].kind);
  EXPECT_EQ(dir_.File("f"), ios[4].path);
  EXPECT_EQ("rename", ios[4].op);
  // The third I/O of the same sequence fails, and says what it was.
  fault_.FailNthIO(3, Status::IOError("injected"));
  Status s = WriteStringToFile(&fault_, "x", dir_.File("f"), true);
  EXPECT_EQ("IO error: " + dir_.File("f") + ": sync: injected", s.ToString());
  EXPECT_EQ(5u, fault_.TakeRecordedIOs().size());  // and the clean-up delete
}

}  // namespace
}  // namespace test
}  // namespace strata
