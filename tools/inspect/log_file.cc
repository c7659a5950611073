#include "tools/inspect/log_file.h"

#include <utility>
#include <vector>

#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

// What the reader reports: it goes on after damage, the tools stop at the
// first report, so later ones (a damaged file may make one per block) are
// not kept.
class LogFile::Reporter final : public log::Reader::Reporter {
 public:
  void Corruption(size_t, const Status& status) override {
    if (reports.empty()) reports.push_back(status);
  }

  std::vector<Status> reports;
};

bool ParsePathName(const std::string& path, uint64_t* number, FileType* type) {
  const size_t slash = path.find_last_of("/\\");
  return ParseFileName(
      slash == std::string::npos ? path : path.substr(slash + 1), number, type);
}

Status BatchFromRecord(const Slice& record, WriteBatch* batch) {
  if (record.size() < WriteBatchInternal::kHeader) {
    return Status::Corruption("record of " + NumberToString(record.size()) +
                              " bytes is too small for a write batch");
  }
  Status s = WriteBatchInternal::SetContents(batch, record);
  return s.ok() ? WriteBatchInternal::Validate(batch) : s;
}

LogFile::LogFile(const std::string& path, WALRecoveryMode mode)
    : path_(path), mode_(mode), reporter_(new Reporter) {}

LogFile::~LogFile() = default;

Status LogFile::Open(Env* env, const std::string& path, WALRecoveryMode mode,
                     bool check_torn_tails, std::unique_ptr<LogFile>* result) {
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(path, &file, EnvOptions());
  if (!s.ok()) return s;
  // The number in the reader's messages ("log #<n>"): the file's own, if
  // its name has one.
  uint64_t number = 0;
  FileType type;
  if (!ParsePathName(path, &number, &type) ||
      (type != FileType::kWalFile && type != FileType::kDescriptorFile)) {
    number = 0;
  }
  std::unique_ptr<LogFile> log(new LogFile(path, mode));
  log->reader_.reset(new log::Reader(
      std::make_unique<SequentialFileReader>(std::move(file), path),
      log->reporter_.get(), /*checksum=*/true, number));
  if (check_torn_tails) log->reader_->CheckTornTails();
  *result = std::move(log);
  return Status::OK();
}

bool LogFile::Next(Slice* record) {
  if (done_) return false;
  const bool more = reader_->ReadRecord(record, &scratch_, mode_);
  // A record returned after a report lies beyond the damage: reading
  // stops at the damage itself.
  if (!reporter_->reports.empty()) {
    const Status& first = reporter_->reports.front();
    status_ =
        first.IsIOError() ? first : Status::Corruption(path_, first.getState());
    done_ = true;
    return false;
  }
  if (!more) done_ = true;
  return more;
}

}  // namespace inspect
}  // namespace strata
