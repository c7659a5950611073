// LogFile: the records of a log-format file (a WAL or a MANIFEST,
// docs/formats/wal.md) read through the Env, for a tool that must stop
// at the first damage and say where it is, rather than skip it as
// recovery may.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TOOLS_INSPECT_LOG_FILE_H_
#define STRATA_TOOLS_INSPECT_LOG_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "db/filename.h"
#include "db/log_reader.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {
namespace inspect {

// ParseFileName (db/filename.h) of path's last component.
bool ParsePathName(const std::string& path, uint64_t* number, FileType* type);

// Loads the WAL record into *batch and checks it whole (a write batch's
// header and records, WriteBatchInternal::Validate); a Corruption (or
// NotSupported) saying what is wrong otherwise.
Status BatchFromRecord(const Slice& record, WriteBatch* batch);

class LogFile {
 public:
  // Opens path. A torn tail ends the reading as damage with
  // kAbsoluteConsistency, silently with kTolerateCorruptedTailRecords
  // (the only two modes used). check_torn_tails: as
  // log::Reader::CheckTornTails.
  static Status Open(Env* env, const std::string& path, WALRecoveryMode mode,
                     bool check_torn_tails, std::unique_ptr<LogFile>* result);
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;
  ~LogFile();

  // The next record: true, or false at the end of the file or at the first
  // damage (then status() says what and where). *record is valid until the
  // next call.
  bool Next(Slice* record);
  // The file offset of the record Next last returned.
  uint64_t offset() const { return reader_->LastRecordOffset(); }
  // OK, or the first damage or read error, as a Corruption (IOError)
  // naming the file and the offset.
  const Status& status() const { return status_; }
  const std::string& path() const { return path_; }
  log::Reader* reader() { return reader_.get(); }

 private:
  class Reporter;
  LogFile(const std::string& path, WALRecoveryMode mode);

  const std::string path_;
  const WALRecoveryMode mode_;
  std::unique_ptr<Reporter> reporter_;
  std::unique_ptr<log::Reader> reader_;
  std::string scratch_;
  Status status_;
  bool done_ = false;
};

}  // namespace inspect
}  // namespace strata

#endif  // STRATA_TOOLS_INSPECT_LOG_FILE_H_
