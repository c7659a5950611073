// OsRandomAccessFile::ReadMany on Windows: a table file's handle is
// overlapped (env/read_win.h), so the reads of a batch are all started
// with ReadFile, each with an event of its own, and then finished one by
// one: the device has them all at once (a batched MultiGet with async_io;
// see env/read_batch.h).

#include <algorithm>
#include <vector>

#include "env/io_util.h"
#include "env/io_win.h"
#include "env/os_file.h"
#include "env/read_win.h"

namespace strata {

namespace {

// Reads in flight at once; a larger batch goes in rounds.
constexpr size_t kInFlight = 64;
// One ReadFile moves at most a DWORD's worth: a larger request is read
// alone, by Read.
constexpr size_t kMaxOverlapped = size_t{1} << 30;

}  // namespace

// Windows has no ring to refuse: overlapped reads always work.
void OsRandomAccessFile::TEST_RefuseReadRing() {}
bool OsRandomAccessFile::TEST_ReadsTogether() { return true; }

void OsRandomAccessFile::ReadMany(const OsRandomAccessFile* const* files,
                                  ReadRequest* const* reqs, size_t n) {
  std::vector<size_t> queued;
  queued.reserve(n);
  for (size_t i = 0; i < n; i++) {
    const OsRandomAccessFile* f = files[i];
    ReadRequest* r = reqs[i];
    if (!f->StartRequest(r)) continue;
    if (r->len > kMaxOverlapped || n == 1) {
      r->status = f->Read(r->offset, r->len, &r->result, r->scratch);
      continue;
    }
    queued.push_back(i);
  }
  std::vector<ScopedHandle> events;
  std::vector<WinRead> reads(std::min(kInFlight, queued.size()));
  for (size_t start = 0; start < queued.size(); start += kInFlight) {
    const size_t count = std::min(kInFlight, queued.size() - start);
    // Start them all, each signalling its own event.
    size_t started = 0;
    for (; started < count; started++) {
      if (events.size() <= started) {
        ScopedHandle event(CreateEventW(nullptr, /*bManualReset=*/TRUE,
                                        /*bInitialState=*/FALSE, nullptr));
        if (!event.is_valid()) break;  // the rest are read one by one
        events.push_back(std::move(event));
      }
      const size_t i = queued[start + started];
      ReadRequest* r = reqs[i];
      WinStartRead(static_cast<HANDLE>(files[i]->file_.get()),
                   events[started].get(), r->offset, r->scratch,
                   static_cast<DWORD>(r->len), &reads[started]);
    }
    // Finish every one started: each writes into its buffer until then.
    for (size_t k = 0; k < count; k++) {
      const size_t i = queued[start + k];
      const OsRandomAccessFile* f = files[i];
      ReadRequest* r = reqs[i];
      if (k >= started) {
        GetIOStats().reads_one_by_one.fetch_add(1, std::memory_order_relaxed);
        r->status = f->Read(r->offset, r->len, &r->result, r->scratch);
        continue;
      }
      GetIOStats().reads_together.fetch_add(1, std::memory_order_relaxed);
      DWORD got = 0;
      const DWORD err =
          WinFinishRead(static_cast<HANDLE>(f->file_.get()), &reads[k], &got);
      if (err != ERROR_SUCCESS) {
        r->status = WinError(f->filename_, "ReadFile", err);
      } else if (got > 0 && got < r->len) {
        // Short: Read finds out whether it is the end of the file.
        r->status = f->Read(r->offset, r->len, &r->result, r->scratch);
      } else {
        r->result = Slice(r->scratch, got);
      }
    }
  }
}

}  // namespace strata
