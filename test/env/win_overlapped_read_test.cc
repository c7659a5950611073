// Windows: a random-access file is read through an overlapped handle, so
// that reads from many threads on one table are not queued one behind the
// other by the I/O manager, as they are on a synchronous handle. Wine
// cannot show that queueing (its server does not serialize a synchronous
// handle's transfers as Windows does), so these tests check what the port
// controls: the handle's mode as the OS reports it, every byte that many
// threads read at once, reads in flight together on one handle, and the
// per-thread event each read waits on.

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "env/io_win.h"
#include "env/os_file.h"
#include "env/read_win.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "util/aligned_buffer.h"
#include "util/random.h"

namespace strata {
namespace {

// Neither a multiple of a page nor of a sector: the last read is short.
constexpr size_t kFileSize = 3 * 65536 + 1234;
constexpr int kThreads = 8;

char ByteAt(uint64_t i) { return static_cast<char>((i * 2654435761u) >> 13); }

class WinOverlappedReadTest : public testing::Test {
 protected:
  WinOverlappedReadTest() : env_(Env::Default()), dir_(env_, "overlapped") {
    std::string data(kFileSize, '\0');
    for (size_t i = 0; i < kFileSize; i++) data[i] = ByteAt(i);
    path_ = dir_.File("000007.sst");
    Status s = WriteStringToFile(env_, data, path_, /*should_sync=*/false);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  std::unique_ptr<RandomAccessFile> OpenRandom(const EnvOptions& options) {
    std::unique_ptr<RandomAccessFile> file;
    Status s = env_->NewRandomAccessFile(path_, &file, options);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return file;
  }

  // Reads from kThreads threads at once, every read checked byte by byte;
  // with direct I/O the offsets and lengths are multiples of the file's
  // alignment. Returns the first wrong read, or "".
  std::string ReadFromManyThreads(const RandomAccessFile& file, bool direct);

  Env* const env_;
  test::TempDir dir_;
  std::string path_;
};

// What a read of n bytes at offset must return, or why it did not.
std::string CheckRead(uint64_t offset, size_t n, const Status& s,
                      const Slice& got) {
  const std::string where =
      "read of " + std::to_string(n) + " at " + std::to_string(offset);
  if (!s.ok()) return where + ": " + s.ToString();
  const size_t expected =
      offset >= kFileSize
          ? 0
          : std::min<size_t>(n, kFileSize - static_cast<size_t>(offset));
  if (got.size() != expected) {
    return where + ": " + std::to_string(got.size()) + " bytes, expected " +
           std::to_string(expected);
  }
  for (size_t i = 0; i < got.size(); i++) {
    if (got[i] != ByteAt(offset + i)) {
      return where + ": wrong byte at " + std::to_string(offset + i);
    }
  }
  return "";
}

std::string WinOverlappedReadTest::ReadFromManyThreads(
    const RandomAccessFile& file, bool direct) {
  const size_t unit = direct ? file.GetRequiredBufferAlignment() : 1;
  const uint64_t units = (kFileSize + unit - 1) / unit;
  const int short_reads = static_cast<int>(std::max<size_t>(8192 / unit, 1));
  std::atomic<int> started{0};
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(301 + t);
      AlignedBuffer buffer;
      buffer.Alignment(direct ? unit : 8);
      buffer.AllocateNewBuffer(24 * 1024 + 2 * unit);
      // All start together, so that reads are in flight at once.
      started.fetch_add(1);
      while (started.load() < kThreads) std::this_thread::yield();
      for (int i = 0; i < 400 && errors[t].empty(); i++) {
        uint64_t offset = 0;
        size_t n = 0;
        switch (i % 4) {
          case 0:  // inside the file
          case 1:
            offset = rnd.Uniform(static_cast<int>(units)) * unit;
            n = (1 + rnd.Uniform(2 * short_reads)) * unit;
            break;
          case 2:  // across the end
            offset = (units - 1 - rnd.Uniform(4)) * unit;
            n = (2 + rnd.Uniform(short_reads)) * unit;
            break;
          default:  // at or past the end
            offset = (units + rnd.Uniform(3)) * unit;
            if (!direct && rnd.OneIn(2)) offset = kFileSize;
            n = (1 + rnd.Uniform(4)) * unit;
            break;
        }
        Slice got;
        Status s = file.Read(offset, n, &got, buffer.BufferStart());
        errors[t] = CheckRead(offset, n, s, got);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& e : errors) {
    if (!e.empty()) return e;
  }
  return "";
}

TEST_F(WinOverlappedReadTest, RandomAccessHandlesAreOverlapped) {
  for (bool direct : {false, true}) {
    EnvOptions options;
    options.use_direct_reads = direct;
    std::unique_ptr<RandomAccessFile> file = OpenRandom(options);
    auto* os_file = dynamic_cast<OsRandomAccessFile*>(file.get());
    ASSERT_NE(nullptr, os_file);
    EXPECT_TRUE(WinIsOverlapped(os_file->TEST_file().get()))
        << "direct=" << direct;
  }
}

TEST_F(WinOverlappedReadTest, OtherHandlesStaySynchronous) {
  std::unique_ptr<SequentialFile> sequential;
  ASSERT_TRUE(env_->NewSequentialFile(path_, &sequential, EnvOptions()).ok());
  auto* os_sequential = dynamic_cast<OsSequentialFile*>(sequential.get());
  ASSERT_NE(nullptr, os_sequential);
  EXPECT_FALSE(WinIsOverlapped(os_sequential->TEST_file().get()));

  std::unique_ptr<RandomRWFile> rw;
  ASSERT_TRUE(env_->NewRandomRWFile(path_, &rw, EnvOptions()).ok());
  auto* os_rw = dynamic_cast<OsRandomRWFile*>(rw.get());
  ASSERT_NE(nullptr, os_rw);
  EXPECT_FALSE(WinIsOverlapped(os_rw->TEST_file().get()));

  // Both read as before, through the same read path.
  std::string scratch(kFileSize + 10, '\0');
  Slice got;
  Status s = sequential->Read(kFileSize + 10, &got, &scratch[0]);
  EXPECT_EQ("", CheckRead(0, kFileSize + 10, s, got));
  s = rw->Read(kFileSize - 5, 10, &got, &scratch[0]);
  EXPECT_EQ("", CheckRead(kFileSize - 5, 10, s, got));
}

TEST_F(WinOverlappedReadTest, EightThreadsReadEveryByteRight) {
  std::unique_ptr<RandomAccessFile> file = OpenRandom(EnvOptions());
  EXPECT_EQ("", ReadFromManyThreads(*file, /*direct=*/false));
}

TEST_F(WinOverlappedReadTest, EightThreadsReadEveryByteRightUnbuffered) {
  EnvOptions options;
  options.use_direct_reads = true;
  std::unique_ptr<RandomAccessFile> file = OpenRandom(options);
  ASSERT_TRUE(file->use_direct_io());
  EXPECT_EQ("", ReadFromManyThreads(*file, /*direct=*/true));
}

TEST_F(WinOverlappedReadTest, MemoryMapOfARandomAccessFileReads) {
  EnvOptions options;
  options.use_mmap_reads = true;
  std::unique_ptr<RandomAccessFile> file = OpenRandom(options);
  Slice got;
  Status s = file->Read(100, kFileSize, &got, nullptr);
  EXPECT_EQ("", CheckRead(100, kFileSize, s, got));
}

TEST_F(WinOverlappedReadTest, ManyReadsInFlightOnOneHandle) {
  std::unique_ptr<RandomAccessFile> file = OpenRandom(EnvOptions());
  auto* os_file = dynamic_cast<OsRandomAccessFile*>(file.get());
  ASSERT_NE(nullptr, os_file);
  HANDLE handle = os_file->TEST_file().get();
  // Inside, across the end, at the end, past it.
  const uint64_t offsets[] = {5, 70000, kFileSize - 100, kFileSize,
                              kFileSize + 4096};
  constexpr size_t kReads = sizeof(offsets) / sizeof(offsets[0]);
  constexpr DWORD kWant = 1000;
  std::vector<ScopedHandle> events;
  std::vector<std::string> buffers(kReads, std::string(kWant, '\0'));
  std::vector<WinRead> reads(kReads);
  for (size_t i = 0; i < kReads; i++) {
    events.emplace_back(CreateEventW(nullptr, TRUE, FALSE, nullptr));
    ASSERT_TRUE(events.back().is_valid());
    WinStartRead(handle, events.back().get(), offsets[i], &buffers[i][0], kWant,
                 &reads[i]);
  }
  // Finished in the reverse order of their start.
  for (size_t i = kReads; i-- > 0;) {
    DWORD got = 0;
    const DWORD err = WinFinishRead(handle, &reads[i], &got);
    EXPECT_EQ(static_cast<DWORD>(ERROR_SUCCESS), err) << i;
    EXPECT_EQ("", CheckRead(offsets[i], kWant, Status::OK(),
                            Slice(buffers[i].data(), got)));
  }
}

TEST_F(WinOverlappedReadTest, EachThreadHasItsOwnEventClosedAtExit) {
  std::unique_ptr<RandomAccessFile> file = OpenRandom(EnvOptions());
  std::promise<HANDLE> made;
  std::promise<void> exit;
  std::thread reader([&] {
    char scratch[16];
    Slice got;
    Status s = file->Read(0, sizeof(scratch), &got, scratch);
    HANDLE event = WinThreadReadEvent();
    // The same event for every read of the thread.
    made.set_value(s.ok() && event == WinThreadReadEvent() ? event : nullptr);
    exit.get_future().wait();
  });
  const HANDLE event = made.get_future().get();
  ASSERT_NE(nullptr, event);
  DWORD flags = 0;
  EXPECT_TRUE(GetHandleInformation(event, &flags));
  EXPECT_NE(event, WinThreadReadEvent());  // this thread's is another
  exit.set_value();
  reader.join();
  // Gone with its thread (nothing has opened a handle since to reuse it).
  EXPECT_FALSE(GetHandleInformation(event, &flags));
  EXPECT_EQ(static_cast<DWORD>(ERROR_INVALID_HANDLE), GetLastError());
}

}  // namespace
}  // namespace strata
