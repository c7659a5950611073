#include "db/wal_scan.h"

#include <memory>
#include <utility>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "strata/env.h"

namespace strata {

Status ScanWal(Env* env, const std::string& dbname, uint64_t number,
               const std::function<bool(bool is_batch, SequenceNumber first,
                                        uint64_t end)>& fn) {
  const std::string fname = LogFileName(dbname, number);
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname),
      /*reporter=*/nullptr, /*checksum=*/true, number);
  std::string scratch;
  Slice record;
  while (reader.ReadRecord(&record, &scratch,
                           WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    SequenceNumber marker;
    SequenceNumber first = 0;
    bool is_batch = false;
    if (record.size() >= WriteBatchInternal::kHeader &&
        !WriteBatchInternal::IsCloseMarker(record, &marker)) {
      WriteBatch batch;
      if (WriteBatchInternal::SetContents(&batch, record).ok()) {
        is_batch = true;
        first = WriteBatchInternal::Sequence(&batch);
      }
    }
    if (!fn(is_batch, first, reader.EndOfLastRecord())) break;
  }
  return Status::OK();
}

}  // namespace strata
