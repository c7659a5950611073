#include "env/read_batch.h"

#include <algorithm>
#include <vector>

#include "env/file_reader.h"
#include "env/io_util.h"
#include "env/os_file.h"

namespace strata {

Status OsRandomAccessFile::MultiRead(ReadRequest* reqs, size_t num_reqs) {
  std::vector<const OsRandomAccessFile*> files(num_reqs, this);
  std::vector<ReadRequest*> ptrs(num_reqs);
  for (size_t i = 0; i < num_reqs; i++) ptrs[i] = &reqs[i];
  ReadMany(files.data(), ptrs.data(), num_reqs);
  return Status::OK();
}

bool OsRandomAccessFile::StartRequest(ReadRequest* req) const {
  req->result = Slice(req->scratch, 0);
  req->status = Status::OK();
  if (use_direct_io_) {
    req->status = CheckDirectIOAlignment(filename_, "read", req->offset,
                                         req->len, req->scratch, alignment_);
  }
  return req->status.ok();
}

const BatchRead* ReadBatch::Add(const RandomAccessFileReader* file,
                                uint64_t offset, size_t n) {
  reads_.emplace_back();
  BatchRead* read = &reads_.back();
  read->file = file;
  read->offset = offset;
  read->n = n;
  return read;
}

void ReadBatch::Clear() {
  uint64_t unused = 0;
  for (const BatchRead& read : reads_) {
    if (read.done && !read.used) unused++;
  }
  if (unused > 0) {
    GetIOStats().batch_reads_unused.fetch_add(unused,
                                              std::memory_order_relaxed);
  }
  reads_.clear();
}

void ReadBatch::Run() {
  std::vector<const OsRandomAccessFile*> os_files;
  std::vector<ReadRequest*> os_requests;
  std::vector<BatchRead*> pending;
  for (BatchRead& read : reads_) {
    if (read.done) continue;
    RandomAccessFile* file = read.file->file();
    // Whole aligned pages for a direct-I/O file; the bytes asked for
    // otherwise (the alignment then only places the buffer).
    const size_t alignment =
        read.file->use_direct_io() ? file->GetRequiredBufferAlignment() : 1;
    const uint64_t start = TruncateToAlignment(read.offset, alignment);
    const uint64_t end = RoundUpToAlignment(read.offset + read.n, alignment);
    read.buffer.Alignment(std::max<size_t>(alignment, 8));
    read.buffer.AllocateNewBuffer(static_cast<size_t>(end - start));
    read.request.offset = start;
    read.request.len = static_cast<size_t>(end - start);
    read.request.scratch = read.buffer.BufferStart();
    pending.push_back(&read);
    if (auto* os = dynamic_cast<const OsRandomAccessFile*>(file)) {
      os_files.push_back(os);
      os_requests.push_back(&read.request);
    } else {
      Status s = file->MultiRead(&read.request, 1);
      if (!s.ok()) read.request.status = s;
    }
  }
  OsRandomAccessFile::ReadMany(os_files.data(), os_requests.data(),
                               os_files.size());
  for (BatchRead* read : pending) {
    read->done = true;
    read->status = read->request.status;
    if (!read->status.ok()) continue;
    const Slice got = read->request.result;
    const size_t skip =
        static_cast<size_t>(read->offset - read->request.offset);
    read->result =
        got.size() <= skip
            ? Slice(got.data(), 0)
            : Slice(got.data() + skip, std::min(read->n, got.size() - skip));
  }
}

}  // namespace strata
