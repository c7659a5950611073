// The WAL files of a DB as DB::GetSortedWalFiles and DB::GetCurrentWalFile
// report them. strata does not archive WALs: every file is alive (in the
// DB directory) until its data is in tables, then deleted.
//
// Thread safety: a LogFile is an immutable description.

#ifndef STRATA_INCLUDE_TRANSACTION_LOG_H_
#define STRATA_INCLUDE_TRANSACTION_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/types.h"

namespace strata {

class LogFile;
using VectorLogPtr = std::vector<std::unique_ptr<LogFile>>;

enum WalFileType {
  kArchivedLogFile = 0,  // RocksDB's archive; never reported by strata
  kAliveLogFile = 1,
};

class STRATA_EXPORT LogFile {
 public:
  LogFile() = default;
  virtual ~LogFile();

  // The file's name relative to the DB directory, with a leading '/'
  // ("/000012.log").
  virtual std::string PathName() const = 0;
  virtual uint64_t LogNumber() const = 0;
  virtual WalFileType Type() const = 0;
  // The sequence number of the file's first write (0 for a file with
  // none yet).
  virtual SequenceNumber StartSequence() const = 0;
  // The file's size when it was listed.
  virtual uint64_t SizeFileBytes() const = 0;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_TRANSACTION_LOG_H_
