// The POSIX members of the memory-mapped file classes (env/os_file.h,
// env/mmap_writer.h).

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "env/io_posix.h"
#include "env/io_util.h"
#include "env/mmap_writer.h"
#include "env/os_file.h"
#include "port/port.h"

namespace strata {

FileView::~FileView() {
  if (base != nullptr) ::munmap(base, length);
}

size_t MmapWriter::Granule() { return port::GetPageSize(); }

// A shared writable mapping of the descriptor; the file is extended to
// cover it first (a mapping past the end of file would fault).
Status MmapWriter::MapView(uint64_t offset, size_t size, char** view) {
  Status s = SetEndOfFile(offset + size);
  if (!s.ok()) return s;
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                   file_.get(), static_cast<off_t>(offset));
  if (p == MAP_FAILED) return PosixError(filename_, "mmap", errno);
  *view = static_cast<char*>(p);
  return Status::OK();
}

Status MmapWriter::UnmapView(char* view, size_t size) {
  if (::munmap(view, size) != 0) return PosixError(filename_, "munmap", errno);
  return Status::OK();
}

Status MmapWriter::FlushView(char* start, size_t n) {
  // msync wants a page-aligned start.
  char* const aligned =
      base_ + TruncateToAlignment(static_cast<uint64_t>(start - base_),
                                  port::GetPageSize());
  if (::msync(aligned, static_cast<size_t>(start + n - aligned), MS_SYNC) !=
      0) {
    return PosixError(filename_, "msync", errno);
  }
  return Status::OK();
}

Status MmapWriter::FlushFile(bool metadata) {
  return SyncFd(file_.get(), filename_, metadata);
}

Status MmapWriter::SetEndOfFile(uint64_t size) {
  return TruncateFd(file_.get(), filename_, size);
}

Status MmapWriter::CloseFile() { return CloseFd(&file_, filename_, "close"); }

}  // namespace strata
