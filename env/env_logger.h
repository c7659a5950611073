// EnvLogger: a Logger that writes lines to a WritableFile of any Env —
//   2026/11/22-09:15:02.123456 140231 message
// (local time to the microsecond, thread id, the message). Each entry is
// written and flushed whole, so a crash loses at most the entry in flight.
//
// Thread safety: Logv may be called from many threads at once.

#ifndef STRATA_ENV_ENV_LOGGER_H_
#define STRATA_ENV_ENV_LOGGER_H_

#include <cstdarg>
#include <memory>

#include "port/port.h"
#include "strata/env.h"

namespace strata {

class EnvLogger : public Logger {
 public:
  EnvLogger(std::unique_ptr<WritableFile> file, Env* env);
  ~EnvLogger() override;

  using Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  void Flush() override;
  Status Close() override;

 private:
  Env* const env_;
  port::Mutex mu_;
  std::unique_ptr<WritableFile> file_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
};

// Opens fname with env and wraps it in an EnvLogger.
Status NewEnvLogger(Env* env, const std::string& fname,
                    std::shared_ptr<Logger>* result);

}  // namespace strata

#endif  // STRATA_ENV_ENV_LOGGER_H_
