// Copying files through an Env: checkpoints and backups copy what they
// cannot hard-link, and backups checksum what they copy; and removing a
// directory of copies.

#ifndef STRATA_ENV_FILE_COPY_H_
#define STRATA_ENV_FILE_COPY_H_

#include <cstdint>
#include <functional>
#include <string>

#include "strata/status.h"

namespace strata {

class Env;
class RateLimiter;

// What a copy does besides copying.
struct FileCopyOptions {
  // Sync dst before closing it.
  bool sync = false;
  // If not null, set to the crc32c of the bytes copied.
  uint32_t* crc32c = nullptr;
  // If set, called after each chunk is written with the bytes written so
  // far; a non-OK return stops the copy with that status.
  std::function<Status(uint64_t copied)> on_chunk;
  // If not null, each chunk's bytes are granted by it at Env::IO_LOW, as
  // a read and as a write (each where its mode limits that), before they
  // are written. Not owned.
  RateLimiter* rate_limiter = nullptr;
};

// Writes the first size bytes of src (read through src_env) to a new file
// dst (written through dst_env, replacing any). A src shorter than size
// is Corruption naming it; on any failure dst is removed.
Status CopyFileBetween(Env* src_env, const std::string& src, Env* dst_env,
                       const std::string& dst, uint64_t size,
                       const FileCopyOptions& options);

// CopyFileBetween within one Env, synced when sync is set.
Status CopyFile(Env* env, const std::string& src, const std::string& dst,
                uint64_t size, bool sync);

// The crc32c of the first max_bytes bytes of fname (all of it if it is
// shorter); *bytes_read says how many that was.
Status FileCrc32c(Env* env, const std::string& fname, uint64_t max_bytes,
                  uint32_t* crc32c, uint64_t* bytes_read);

// Removes dir and the files in it (not subdirectories), as far as
// possible.
void RemoveDirAndFiles(Env* env, const std::string& dir);

}  // namespace strata

#endif  // STRATA_ENV_FILE_COPY_H_
