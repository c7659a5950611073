// The read and read-write file classes of the OS Envs, declared once for
// every platform: each owns one NativeFile and reads (or writes) at an
// offset through it. The members are defined by env/io_posix.cc (pread,
// pwrite, read for a buffered sequential file, posix_fadvise) and
// env/io_win.cc (ReadFile/WriteFile with an OVERLAPPED offset; end of file
// is a short read; an OsRandomAccessFile's handle is overlapped, see
// env/read_win.h).
//
// With direct I/O every transfer is checked for alignment before it
// reaches the OS (CheckDirectIOAlignment) and refused if misaligned.
// alignment is then what transfers are checked against; for a buffered
// file it is the buffer alignment GetRequiredBufferAlignment reports.
//
// MmapReadableFile, for EnvOptions::use_mmap_reads, reads through a view
// of the whole file (mmap, MapViewOfFile) instead; OsMemoryMappedFileBuffer
// is a writable view of one, for Env::NewMemoryMappedFileBuffer.
//
// Thread safety: OsRandomAccessFile, OsRandomRWFile and MmapReadableFile
// are safe from many threads (positional transfers on one handle);
// OsSequentialFile is used by one thread at a time.

#ifndef STRATA_ENV_OS_FILE_H_
#define STRATA_ENV_OS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

// What the three classes below hold, and the two answers that come from
// it. Interface: SequentialFile, RandomAccessFile or RandomRWFile.
template <typename Interface>
class OsFile : public Interface {
 public:
  OsFile(std::string fname, NativeFile file, bool use_direct_io,
         size_t alignment)
      : filename_(std::move(fname)),
        file_(std::move(file)),
        use_direct_io_(use_direct_io),
        alignment_(alignment) {}

  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }

  // The OS's handle or descriptor, for tests that ask the OS about it.
  const NativeFile& TEST_file() const { return file_; }

 protected:
  const std::string filename_;
  NativeFile file_;
  const bool use_direct_io_;
  const size_t alignment_;
};

class OsSequentialFile final : public OsFile<SequentialFile> {
 public:
  using OsFile<SequentialFile>::OsFile;

  Status Read(size_t n, Slice* result, char* scratch) override;
  Status Skip(uint64_t n) override;
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override;
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  // The next byte Read returns, where reads are positional (direct I/O;
  // every read on Windows). A buffered POSIX file reads at the
  // descriptor's own position instead.
  uint64_t offset_ = 0;
};

class OsRandomAccessFile final : public OsFile<RandomAccessFile> {
 public:
  using OsFile<RandomAccessFile>::OsFile;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  // ReadMany with this file for every request.
  Status MultiRead(ReadRequest* reqs, size_t num_reqs) override;
  Status Prefetch(uint64_t offset, size_t n) override;
  Status InvalidateCache(size_t offset, size_t length) override;

  // Reads *reqs[i] from *files[i] for every i < n, each as Read would,
  // with the reads in flight together: through the calling thread's
  // io_uring on Linux (env/read_many_posix.cc; one read after another
  // where the kernel refuses a ring), overlapped ReadFile on Windows
  // (env/read_win.cc). Sets every request's result and status.
  static void ReadMany(const OsRandomAccessFile* const* files,
                       ReadRequest* const* reqs, size_t n);
  // Tests: ReadMany on the calling thread reads one request after another
  // from now on, as where the kernel refuses a ring.
  static void TEST_RefuseReadRing();
  // Tests: whether ReadMany on the calling thread has its reads in flight
  // together (a ring it has or can make; always on Windows).
  static bool TEST_ReadsTogether();

 private:
  // Empties req's result and status and, with direct I/O, checks its
  // alignment: false, with req's status saying why, if it is refused.
  bool StartRequest(ReadRequest* req) const;
};

class OsRandomRWFile final : public OsFile<RandomRWFile> {
 public:
  using OsFile<RandomRWFile>::OsFile;

  Status Write(uint64_t offset, const Slice& data) override;
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Fsync() override;
  // The first close reports the OS's error; later ones are no-ops.
  Status Close() override;
};

// A view of the whole of a file and what keeps it: on Windows the file and
// the mapping behind the view; on POSIX nothing (a view outlives its
// descriptor), and both handles are empty. An empty file has no view
// (base null, length 0). The destructor unmaps the view (defined by the
// platform), then closes the handles.
struct FileView {
  FileView() = default;
  FileView(const FileView&) = delete;
  FileView& operator=(const FileView&) = delete;
  ~FileView();

  // Declared in the order they are made: destroyed in reverse.
  NativeFile file;
  NativeFile mapping;
  void* base = nullptr;
  size_t length = 0;
};

// Reads through a read-only view of the whole file.
class MmapReadableFile final : public RandomAccessFile {
 public:
  MmapReadableFile(std::string fname, std::unique_ptr<FileView> view)
      : filename_(std::move(fname)), view_(std::move(view)) {}

  // A read at or past the end is short (empty); scratch is not used.
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* /*scratch*/) const override {
    *result = Slice();
    if (offset < view_->length) {
      const size_t available = view_->length - static_cast<size_t>(offset);
      *result = Slice(static_cast<const char*>(view_->base) + offset,
                      available < n ? available : n);
    }
    return Status::OK();
  }

 private:
  const std::string filename_;
  const std::unique_ptr<FileView> view_;
};

// Env::NewMemoryMappedFileBuffer's buffer: a read-write view.
class OsMemoryMappedFileBuffer final : public MemoryMappedFileBuffer {
 public:
  explicit OsMemoryMappedFileBuffer(std::unique_ptr<FileView> view)
      : MemoryMappedFileBuffer(view->base, view->length),
        view_(std::move(view)) {}

 private:
  const std::unique_ptr<FileView> view_;
};

}  // namespace strata

#endif  // STRATA_ENV_OS_FILE_H_
