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

#include "env/io_util.h"
#include "env/os_file.h"

#if defined(STRATA_HAVE_LIBURING)
#include <liburing.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#endif

namespace strata {

namespace {

#if defined(STRATA_HAVE_LIBURING)

// Requests one ring submission carries at most.
constexpr unsigned kRingEntries = 64;
// io_uring_submit answers EAGAIN or EBUSY while the kernel is short of
// resources; after this many in a row the ring counts as failed.
constexpr int kSubmitRetries = 1000;

void ForgetRingAfterFork();

// The calling thread's ring, made by its first batch. A thread whose ring
// the kernel refused, or whose ring failed, reads with pread from then on.
class ThreadRing {
 public:
  enum State { kUntried, kReady, kRefused };

  ThreadRing() = default;
  ThreadRing(const ThreadRing&) = delete;
  ThreadRing& operator=(const ThreadRing&) = delete;
  ~ThreadRing() { Close(kRefused); }

  io_uring* Get() {
    if (state_ == kUntried) {
      state_ = kRefused;
      if (io_uring_queue_init(kRingEntries, &ring_, 0) == 0) {
        state_ = kReady;
        // A ring of a kernel before 5.6 opens but cannot read (no
        // IORING_OP_READ): every read would fail with EINVAL.
        if (!CanRead()) Close(kRefused);
      }
      if (state_ == kReady) {
        static std::once_flag registered;
        std::call_once(registered, [] {
          pthread_atfork(nullptr, nullptr, ForgetRingAfterFork);
        });
      }
    }
    return state_ == kReady ? &ring_ : nullptr;
  }

  // Gives the ring up; the thread's next batch finds it in state next.
  void Close(State next) {
    if (state_ == kReady) io_uring_queue_exit(&ring_);
    state_ = next;
  }

 private:
  bool CanRead() {
    io_uring_probe* probe = io_uring_get_probe_ring(&ring_);
    const bool ok =
        probe != nullptr && io_uring_opcode_supported(probe, IORING_OP_READ);
    if (probe != nullptr) io_uring_free_probe(probe);
    return ok;
  }

  State state_ = kUntried;
  io_uring ring_;
};

thread_local ThreadRing thread_ring;

// In a child of fork: the forking thread's ring is the parent's (shared
// memory, a duplicated descriptor). The child drops its copies (unmapping
// and closing them leaves the parent's alone) and makes its own when it
// needs one.
void ForgetRingAfterFork() { thread_ring.Close(ThreadRing::kUntried); }

// Submits the count requests queued[0, count) to ring and waits for them.
// Sets finished[i] for each request the ring read whole (or found at the
// end of the file); any other (a short read, an error, a failed
// submission) is left to the caller's pread, which also says what went
// wrong the way Read does. Returns false if the ring failed and must not
// be used again.
bool RingRead(io_uring* ring, const int* fds, ReadRequest* const* reqs,
              const size_t* queued, size_t count, std::vector<char>* finished) {
  size_t prepared = 0;
  for (; prepared < count; prepared++) {
    io_uring_sqe* sqe = io_uring_get_sqe(ring);
    if (sqe == nullptr) break;
    const size_t i = queued[prepared];
    ReadRequest* r = reqs[i];
    io_uring_prep_read(sqe, fds[i], r->scratch, static_cast<unsigned>(r->len),
                       r->offset);
    io_uring_sqe_set_data(sqe, reinterpret_cast<void*>(i));
  }
  size_t in_flight = 0;
  bool healthy = true;
  int retries = 0;
  while (in_flight < prepared) {
    const int r = io_uring_submit(ring);
    if (r > 0) {
      in_flight += static_cast<size_t>(r);
      retries = 0;
      continue;
    }
    const bool transient = r == -EINTR || r == -EAGAIN || r == -EBUSY;
    if (transient && ++retries < kSubmitRetries) continue;
    // Unusable: the reads still queued never start. The caller closes
    // the ring, which drops them with it.
    healthy = false;
    break;
  }
  // Every read in flight writes into its buffer: all are waited for, even
  // after a failed submission.
  for (size_t k = 0; k < in_flight; k++) {
    io_uring_cqe* cqe = nullptr;
    int r;
    do {
      r = io_uring_wait_cqe(ring, &cqe);
    } while (r == -EINTR || r == -EAGAIN || r == -EBUSY);
    if (r < 0) {
      // Reads are in flight into buffers that are about to be refilled
      // and freed: going on would corrupt memory. The kernel gives no
      // such answer with completions pending.
      std::fprintf(stderr,
                   "strata: io_uring_wait_cqe failed (%d) with reads in "
                   "flight\n",
                   r);
      std::abort();
    }
    const size_t i = reinterpret_cast<size_t>(io_uring_cqe_get_data(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    ReadRequest* req = reqs[i];
    if (res < 0 || (res > 0 && static_cast<size_t>(res) < req->len)) {
      continue;  // pread reads it again and finds out what it was
    }
    req->result = Slice(req->scratch, static_cast<size_t>(res));
    (*finished)[i] = 1;
  }
  return healthy;
}

#endif  // STRATA_HAVE_LIBURING

}  // namespace

void OsRandomAccessFile::TEST_RefuseReadRing() {
#if defined(STRATA_HAVE_LIBURING)
  thread_ring.Close(ThreadRing::kRefused);
#endif
}

bool OsRandomAccessFile::TEST_ReadsTogether() {
#if defined(STRATA_HAVE_LIBURING)
  return thread_ring.Get() != nullptr;
#else
  return false;
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
  std::vector<int> fds;
  if (ring != nullptr) {
    fds.resize(n);
    for (size_t i = 0; i < n; i++) fds[i] = files[i]->file_.get();
  }
  for (size_t start = 0; ring != nullptr && start < queued.size();
       start += kRingEntries) {
    const size_t count = std::min<size_t>(kRingEntries, queued.size() - start);
    if (!RingRead(ring, fds.data(), reqs, queued.data() + start, count,
                  &finished)) {
      thread_ring.Close(ThreadRing::kRefused);
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
