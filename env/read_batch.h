// Reads of many table files started together. A batched MultiGet with
// ReadOptions::async_io gathers the data blocks its keys need on one level
// and reads them in one go (docs/read_path.md, "Reading a batch's blocks
// together"): reads of the OS Envs' files are in flight together
// (OsRandomAccessFile::ReadMany: io_uring, overlapped ReadFile); reads of
// other files (a custom Env's, MemEnv's) go through their MultiRead.
//
// Direct I/O is hidden here as RandomAccessFileReader hides it: each read
// is widened to whole aligned pages in a buffer of its own, and result
// points at the bytes asked for inside it.
//
// Thread safety: one thread at a time (the MultiGet's).

#ifndef STRATA_ENV_READ_BATCH_H_
#define STRATA_ENV_READ_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <deque>

#include "strata/env.h"
#include "util/aligned_buffer.h"

namespace strata {

class RandomAccessFileReader;

// One read of a ReadBatch. It stays where it is until the batch is
// cleared or destroyed.
struct BatchRead {
  const RandomAccessFileReader* file = nullptr;
  uint64_t offset = 0;
  size_t n = 0;
  // Set by ReadBatch::Run: the bytes [offset, offset + n) (fewer at the
  // end of the file, none on error), and how the read went.
  Slice result;
  Status status;
  // Whether Run has read it.
  bool done = false;
  // Set by whoever takes the bytes (a table decoding its block from
  // them); a read left unused when the batch is cleared was wasted, and
  // IOStats::batch_reads_unused counts it.
  mutable bool used = false;

  // The transfer as the file sees it, and its buffer.
  ReadRequest request;
  AlignedBuffer buffer;
};

class ReadBatch {
 public:
  ReadBatch() = default;
  ReadBatch(const ReadBatch&) = delete;
  ReadBatch& operator=(const ReadBatch&) = delete;
  ~ReadBatch() { Clear(); }

  // Adds a read of n bytes at offset of file, to be read by the next Run.
  // file must stay open until then.
  const BatchRead* Add(const RandomAccessFileReader* file, uint64_t offset,
                       size_t n);

  // Reads everything added since the last Run, all reads of the OS Envs'
  // files in flight together, and sets each read's result and status.
  void Run();

  // Forgets every read: pointers Add returned are then dangling.
  void Clear();

  size_t size() const { return reads_.size(); }

 private:
  std::deque<BatchRead> reads_;  // a deque: Add never moves a read
};

}  // namespace strata

#endif  // STRATA_ENV_READ_BATCH_H_
