// Copying files through an Env: checkpoints and backups copy what they
// cannot hard-link.

#ifndef STRATA_ENV_FILE_COPY_H_
#define STRATA_ENV_FILE_COPY_H_

#include <cstdint>
#include <string>

#include "strata/status.h"

namespace strata {

class Env;

// Writes the first size bytes of src to a new file dst (replacing any),
// synced when sync is set. A src shorter than size is Corruption naming
// it; on any failure dst is removed.
Status CopyFile(Env* env, const std::string& src, const std::string& dst,
                uint64_t size, bool sync);

}  // namespace strata

#endif  // STRATA_ENV_FILE_COPY_H_
