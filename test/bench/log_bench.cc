// log::Writer::AddRecord of 100 B, 1 KiB and 64 KiB records — fragmenting,
// checksumming and buffering — into a file that discards what it is given,
// so that no I/O is measured.

#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "db/log_writer.h"
#include "env/file_writer.h"
#include "strata/env.h"

namespace strata {
namespace {

class DiscardFile : public WritableFile {
 public:
  Status Append(const Slice& data) override {
    size_ += data.size();
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  uint64_t GetFileSize() override { return size_; }

 private:
  uint64_t size_ = 0;
};

void BM_LogAddRecord(benchmark::State& state) {
  const std::string record(static_cast<size_t>(state.range(0)), 'r');
  log::Writer writer(std::unique_ptr<WritableFileWriter>(new WritableFileWriter(
                         std::unique_ptr<WritableFile>(new DiscardFile),
                         "discard.log", EnvOptions())),
                     1);
  for (auto _ : state) {
    Status s = writer.AddRecord(record);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}

BENCHMARK(BM_LogAddRecord)->Arg(100)->Arg(1024)->Arg(64 * 1024);

}  // namespace
}  // namespace strata
