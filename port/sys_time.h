// Wall-clock time in the port namespace: gettimeofday and a thread-safe
// localtime, with the same signatures on every platform.

#ifndef STRATA_PORT_SYS_TIME_H_
#define STRATA_PORT_SYS_TIME_H_

#include <cstdint>
#include <ctime>

namespace strata {
namespace port {

struct TimeVal {
  int64_t tv_sec;   // seconds since the Unix epoch
  int64_t tv_usec;  // microseconds within the second
};

void GetTimeOfDay(TimeVal* tv);

// The local calendar time of *timep, thread-safe (localtime_r/localtime_s).
void LocalTimeR(const time_t* timep, struct tm* result);

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_SYS_TIME_H_
