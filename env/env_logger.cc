#include "env/env_logger.h"

#include <cstdio>
#include <ctime>
#include <string>

#include "port/sys_time.h"
#include "util/mutexlock.h"

namespace strata {

EnvLogger::EnvLogger(std::unique_ptr<WritableFile> file, Env* env)
    : env_(env), file_(std::move(file)) {}

EnvLogger::~EnvLogger() {
  Status ignored = Close();
  (void)ignored;
}

void EnvLogger::Logv(const char* format, va_list ap) {
  const uint64_t now_micros = env_->NowMicros();
  const time_t seconds = static_cast<time_t>(now_micros / 1000000);
  struct tm t;
  port::LocalTimeR(&seconds, &t);

  std::string line;
  char prefix[80];
  std::snprintf(prefix, sizeof(prefix),
                "%04d/%02d/%02d-%02d:%02d:%02d.%06d %llu ", t.tm_year + 1900,
                t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
                static_cast<int>(now_micros % 1000000),
                static_cast<unsigned long long>(env_->GetThreadID()));
  line.append(prefix);

  va_list probe;
  va_copy(probe, ap);
  char small[512];
  const int n = std::vsnprintf(small, sizeof(small), format, probe);
  va_end(probe);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof(small)) {
    line.append(small, static_cast<size_t>(n));
  } else {
    std::string big(static_cast<size_t>(n) + 1, '\0');
    std::vsnprintf(&big[0], big.size(), format, ap);
    line.append(big.data(), static_cast<size_t>(n));
  }
  if (line.back() != '\n') line.push_back('\n');

  MutexLock l(&mu_);
  if (closed_) return;
  // A log that cannot be written must not fail the operation being logged.
  Status ignored = file_->Append(line);
  if (ignored.ok()) ignored = file_->Flush();
  (void)ignored;
}

void EnvLogger::Flush() {
  MutexLock l(&mu_);
  if (!closed_) {
    Status ignored = file_->Flush();
    (void)ignored;
  }
}

Status EnvLogger::Close() {
  MutexLock l(&mu_);
  if (closed_) return Status::OK();
  closed_ = true;
  return file_->Close();
}

Status NewEnvLogger(Env* env, const std::string& fname,
                    std::shared_ptr<Logger>* result) {
  std::unique_ptr<WritableFile> file;
  EnvOptions options;
  options.use_mmap_writes = false;
  Status s = env->NewWritableFile(fname, &file, options);
  if (!s.ok()) return s;
  result->reset(new EnvLogger(std::move(file), env));
  return Status::OK();
}

}  // namespace strata
