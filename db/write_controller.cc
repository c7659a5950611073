#include "db/write_controller.h"

namespace strata {

WriteStallCondition ComputeWriteStall(const WriteStallInputs& in,
                                      std::string* reason) {
  if (in.num_unflushed_memtables >= in.max_write_buffer_number) {
    *reason = "memtable limit: " + std::to_string(in.num_unflushed_memtables) +
              " memtables wait for flush";
    return WriteStallCondition::kStopped;
  }
  if (!in.disable_auto_compactions &&
      in.num_l0_files >= in.level0_stop_writes_trigger) {
    *reason = "L0 stop trigger: " + std::to_string(in.num_l0_files) + " files";
    return WriteStallCondition::kStopped;
  }
  if (in.max_write_buffer_number > 3 &&
      in.num_unflushed_memtables >= in.max_write_buffer_number - 1) {
    *reason =
        "memtables almost full: " + std::to_string(in.num_unflushed_memtables) +
        " wait for flush";
    return WriteStallCondition::kDelayed;
  }
  if (!in.disable_auto_compactions &&
      in.num_l0_files >= in.level0_slowdown_writes_trigger) {
    *reason =
        "L0 slowdown trigger: " + std::to_string(in.num_l0_files) + " files";
    return WriteStallCondition::kDelayed;
  }
  reason->clear();
  return WriteStallCondition::kNormal;
}

WriteController::WriteController(uint64_t delayed_write_rate)
    : rate_(delayed_write_rate != 0 ? delayed_write_rate : 16 << 20) {}

void WriteController::SetCondition(WriteStallCondition condition) {
  condition_ = condition;
}

uint64_t WriteController::GetDelay(uint64_t now_micros, uint64_t num_bytes) {
  if (condition_ != WriteStallCondition::kDelayed) return 0;
  // A write starts when the earlier ones are paid for, or now if they are.
  const uint64_t start =
      paid_until_micros_ > now_micros ? paid_until_micros_ : now_micros;
  const uint64_t cost = num_bytes * 1000000 / rate_;
  paid_until_micros_ = start + cost;
  return start - now_micros;
}

}  // namespace strata
