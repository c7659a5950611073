// The public column-family declarations of strata/db.h that need a
// definition, and the engine's families (db/column_family.h).

#include "db/column_family.h"

#include <algorithm>
#include <cassert>

#include "db/db_impl.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

const std::string kDefaultColumnFamilyName("default");

ColumnFamilyHandle::~ColumnFamilyHandle() = default;

ColumnFamilyData::ColumnFamilyData(uint32_t id, const std::string& name,
                                   const Options& options,
                                   const std::string& dbname)
    : id_(id),
      name_(name),
      options_(options),
      icmp_(options.comparator),
      table_cache_(
          new TableCache(TableCacheOptionsFor(options_, dbname, &icmp_))),
      picker_(CompactionPickerOptions::FromOptions(options_)),
      compact_pointers_(options.num_levels),
      dummy_versions_(&icmp_, 0) {
  AppendVersion(new Version(&icmp_, options_.num_levels));
}

ColumnFamilyData::~ColumnFamilyData() {
  assert(refs_ == 0);
  if (dropped_from_ != nullptr) {
    std::vector<ColumnFamilyData*>& list = dropped_from_->dropped_;
    list.erase(std::find(list.begin(), list.end(), this));
  }
  if (mem != nullptr) mem->Unref();
  imm.RemoveOldest(imm.NumNotFlushed());
  current_->Unref();
  // A version someone still holds would point into this family.
  assert(dummy_versions_.next_ == &dummy_versions_);
}

void ColumnFamilyData::SetMutableOptions(const Options& options) {
  options_.write_buffer_size = options.write_buffer_size;
  options_.max_write_buffer_number = options.max_write_buffer_number;
  options_.disable_auto_compactions = options.disable_auto_compactions;
  options_.level0_file_num_compaction_trigger =
      options.level0_file_num_compaction_trigger;
  options_.level0_slowdown_writes_trigger =
      options.level0_slowdown_writes_trigger;
  options_.level0_stop_writes_trigger = options.level0_stop_writes_trigger;
  options_.target_file_size_base = options.target_file_size_base;
  options_.target_file_size_multiplier = options.target_file_size_multiplier;
  options_.max_bytes_for_level_base = options.max_bytes_for_level_base;
  options_.max_bytes_for_level_multiplier =
      options.max_bytes_for_level_multiplier;
  options_.max_compaction_bytes = options.max_compaction_bytes;
  picker_ = CompactionPicker(CompactionPickerOptions::FromOptions(options_));
}

void ColumnFamilyData::Unref() {
  assert(refs_ > 0);
  if (--refs_ == 0) delete this;
}

void ColumnFamilyData::AppendVersion(Version* v) {
  assert(v->refs_ == 0 && v != current_);
  if (current_ != nullptr) current_->Unref();
  current_ = v;
  v->Ref();
  v->prev_ = dummy_versions_.prev_;
  v->next_ = &dummy_versions_;
  v->prev_->next_ = v;
  v->next_->prev_ = v;
}

void ColumnFamilyData::AddLiveFiles(std::vector<uint64_t>* live) const {
  for (const Version* v = dummy_versions_.next_; v != &dummy_versions_;
       v = v->next_) {
    v->AddLiveFiles(live);
  }
}

std::string ColumnFamilyData::LevelSummary() const {
  std::string r = "files[";
  for (int level = 0; level < current_->num_levels(); level++) {
    r += " " + NumberToString(current_->NumFiles(level));
  }
  r += " ]";
  return r;
}

ColumnFamilySet::~ColumnFamilySet() {
  for (const auto& entry : by_id_) entry.second->Unref();
  // Dropped families outliving the set (a leaked handle) forget it.
  for (ColumnFamilyData* cfd : dropped_) cfd->dropped_from_ = nullptr;
}

ColumnFamilyData* ColumnFamilySet::Find(uint32_t id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

ColumnFamilyData* ColumnFamilySet::FindByName(const std::string& name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : Find(it->second);
}

std::vector<ColumnFamilyData*> ColumnFamilySet::All() const {
  std::vector<ColumnFamilyData*> result;
  result.reserve(by_id_.size());
  for (const auto& entry : by_id_) result.push_back(entry.second);
  return result;
}

void ColumnFamilySet::Add(ColumnFamilyData* cfd) {
  assert(by_id_.count(cfd->id()) == 0 && by_name_.count(cfd->name()) == 0);
  cfd->Ref();
  by_id_[cfd->id()] = cfd;
  by_name_[cfd->name()] = cfd->id();
  UpdateMaxId(cfd->id());
}

void ColumnFamilySet::Remove(ColumnFamilyData* cfd) {
  assert(Find(cfd->id()) == cfd);
  by_id_.erase(cfd->id());
  by_name_.erase(cfd->name());
  cfd->dropped_ = true;
  if (cfd->refs_ > 1) {
    cfd->dropped_from_ = this;
    dropped_.push_back(cfd);
  }
  cfd->Unref();
}

ColumnFamilyRoutes::ColumnFamilyRoutes(
    const std::vector<ColumnFamilyData*>& families)
    : all_(families) {
  constexpr uint32_t kDense = 64;
  for (ColumnFamilyData* cfd : families) {
    if (cfd->id() < kDense) {
      if (dense_.size() <= cfd->id()) dense_.resize(cfd->id() + 1, nullptr);
      dense_[cfd->id()] = cfd;
    } else {
      sparse_[cfd->id()] = cfd;
    }
  }
}

ColumnFamilyHandleImpl::ColumnFamilyHandleImpl(ColumnFamilyData* cfd,
                                               DBImpl* db)
    : cfd_(cfd),
      db_(db),
      name_(cfd->name()),
      id_(cfd->id()),
      comparator_(cfd->user_comparator()) {
  cfd_->Ref();
}

ColumnFamilyHandleImpl::~ColumnFamilyHandleImpl() {
  if (cfd_ != nullptr) db_->ForgetHandle(this);
}

void ColumnFamilyHandleImpl::Release() {
  if (cfd_ != nullptr) {
    cfd_->Unref();
    cfd_ = nullptr;
  }
}

Status ColumnFamilyHandleImpl::GetDescriptor(ColumnFamilyDescriptor* desc) {
  return db_->GetDescriptor(this, desc);
}

}  // namespace strata
