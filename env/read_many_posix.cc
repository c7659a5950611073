// OsRandomAccessFile::ReadMany on POSIX: the reads of a batch go to the
// calling thread's io_uring together and are waited for together, so the
// device sees them all at once (a batched MultiGet with async_io; see
// env/read_batch.h). Without liburing, or where the kernel refuses a ring
// (old kernels, seccomp, io_uring_disabled), the reads are preads one
// after another: slower, the same results.

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "env/io_posix.h"
#include "env/io_util.h"
#include "env/os_file.h"

#if defined(STRATA_HAVE_LIBURING)
#include <liburing.h>
#endif

namespace strata {

namespace {

#if defined(STRATA_HAVE_LIBURING)

// Requests one ring submission carries at most.
constexpr unsigned kRingEntries = 64;

// The calling thread's ring, made by its first batch. A thread whose ring
// the kernel refused, or whose ring failed, reads with pread from then on.
class ThreadRing {
 public:
  ThreadRing() = default;
  ThreadRing(const ThreadRing&) = delete;
  ThreadRing& operator=(const ThreadRing&) = delete;
  ~ThreadRing() { Close(); }

  io_uring* Get() {
    if (state_ == kUntried) {
      state_ =
          io_uring_queue_init(kRingEntries, &ring_, 0) == 0 ? kReady : kRefused;
    }
    return state_ == kReady ? &ring_ : nullptr;
  }

  void Close() {
    if (state_ == kReady) io_uring_queue_exit(&ring_);
    state_ = kRefused;
  }

 private:
  enum State { kUntried, kReady, kRefused };
  State state_ = kUntried;
  io_uring ring_;
};

thread_local ThreadRing thread_ring;

// Submits the count requests queued[0, count) to ring and waits for them.
// Sets finished[i] for each request the ring completed; one it did not
// (a short read, EAGAIN, a failed submission) is left to the caller.
// Returns false if the ring failed and must not be used again.
bool RingRead(io_uring* ring, const OsRandomAccessFile* const* files,
              ReadRequest* const* reqs, const size_t* queued, size_t count,
              std::vector<char>* finished,
              int (*fd_of)(const OsRandomAccessFile*),
              const std::string& (*name_of)(const OsRandomAccessFile*)) {
  size_t prepared = 0;
  for (; prepared < count; prepared++) {
    io_uring_sqe* sqe = io_uring_get_sqe(ring);
    if (sqe == nullptr) break;
    const size_t i = queued[prepared];
    ReadRequest* r = reqs[i];
    io_uring_prep_read(sqe, fd_of(files[i]), r->scratch,
                       static_cast<unsigned>(r->len), r->offset);
    io_uring_sqe_set_data(sqe, reinterpret_cast<void*>(i));
  }
  size_t in_flight = 0;
  bool healthy = true;
  while (in_flight < prepared) {
    const int r = io_uring_submit(ring);
    if (r == -EINTR || r == -EAGAIN) continue;
    if (r <= 0) {  // the ring is unusable: the queued reads never start
      healthy = false;
      break;
    }
    in_flight += static_cast<size_t>(r);
  }
  // Every read in flight writes into its buffer: all are waited for, even
  // after a failed submission.
  for (size_t k = 0; k < in_flight; k++) {
    io_uring_cqe* cqe = nullptr;
    int r;
    do {
      r = io_uring_wait_cqe(ring, &cqe);
    } while (r == -EINTR);
    if (r < 0) return false;  // cannot happen with reads in flight
    const size_t i = reinterpret_cast<size_t>(io_uring_cqe_get_data(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    ReadRequest* req = reqs[i];
    if (res == -EINTR || res == -EAGAIN) continue;  // read again by pread
    if (res < 0) {
      req->status = PosixError(name_of(files[i]), "io_uring read", -res);
    } else if (static_cast<size_t>(res) < req->len && res > 0) {
      continue;  // short: pread finds out whether it is the end
    } else {
      req->result = Slice(req->scratch, static_cast<size_t>(res));
    }
    (*finished)[i] = 1;
  }
  return healthy;
}

#endif  // STRATA_HAVE_LIBURING

}  // namespace

void OsRandomAccessFile::TEST_RefuseReadRing() {
#if defined(STRATA_HAVE_LIBURING)
  thread_ring.Close();
#endif
}

void OsRandomAccessFile::ReadMany(const OsRandomAccessFile* const* files,
                                  ReadRequest* const* reqs, size_t n) {
  std::vector<size_t> queued;
  queued.reserve(n);
  for (size_t i = 0; i < n; i++) {
    if (files[i]->StartRequest(reqs[i])) queued.push_back(i);
  }
  std::vector<char> finished(n, 0);
#if defined(STRATA_HAVE_LIBURING)
  io_uring* ring = queued.size() > 1 ? thread_ring.Get() : nullptr;
  for (size_t start = 0; ring != nullptr && start < queued.size();
       start += kRingEntries) {
    const size_t count = std::min<size_t>(kRingEntries, queued.size() - start);
    if (!RingRead(
            ring, files, reqs, queued.data() + start, count, &finished,
            [](const OsRandomAccessFile* f) { return f->file_.get(); },
            [](const OsRandomAccessFile* f) -> const std::string& {
              return f->filename_;
            })) {
      thread_ring.Close();
      ring = nullptr;
    }
  }
#endif
  for (size_t i : queued) {
    if (finished[i]) {
      GetIOStats().reads_together.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    // A single read is not a batch: only a batch's reads count.
    if (queued.size() > 1) {
      GetIOStats().reads_one_by_one.fetch_add(1, std::memory_order_relaxed);
    }
    ReadRequest* r = reqs[i];
    r->status = files[i]->Read(r->offset, r->len, &r->result, r->scratch);
  }
}

}  // namespace strata
