// The WAL / MANIFEST record reader (db/log_reader.h) over arbitrary bytes.
//
// Input: one byte of settings, then the file. The settings byte picks the
// WALRecoveryMode (bits 0-1), whether checksums are checked (bit 2, off
// when set: the setting that lets damaged payloads through) and the
// MANIFEST reader's torn-tail check (bit 3). Every record is read, and
// each is also decoded as a WriteBatch, as WAL recovery does.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "db/log_reader.h"
#include "env/file_reader.h"
#include "fuzz/fuzz_util.h"

namespace {

class CountingReporter : public strata::log::Reader::Reporter {
 public:
  void Corruption(size_t bytes, const strata::Status& status) override {
    dropped_ += bytes;
    status.ToString();
  }

 private:
  size_t dropped_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  fuzz::FuzzInput input(data, size);
  const uint8_t settings = input.TakeByte();
  const WALRecoveryMode mode = fuzz::ModeOf(settings);
  const bool checksum = (settings & 4) == 0;
  const bool check_torn_tails = (settings & 8) != 0;

  const std::string fname = "/wal.log";
  std::unique_ptr<Env> env =
      fuzz::NewEnvWithFiles({{fname, input.Rest().ToString()}});
  std::unique_ptr<SequentialFile> file;
  if (!env->NewSequentialFile(fname, &file, EnvOptions()).ok()) abort();
  CountingReporter reporter;
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname), &reporter,
      checksum, /*log_number=*/7);
  if (check_torn_tails) reader.CheckTornTails();
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch, mode)) {
    reader.LastRecordOffset();
    fuzz::ParseWriteBatch(record);
  }
  uint64_t number = 0, predecessor_size = 0;
  reader.Predecessor(&number, &predecessor_size);
  reader.EndOfLastRecord();
  return 0;
}
