#include "tools/inspect/manifest_state.h"

#include <algorithm>
#include <utility>

#include "strata/db.h"
#include "util/logging.h"

namespace strata {
namespace inspect {

ManifestState::Family::~Family() {
  builder.reset();  // it holds a ref on base
  if (version != nullptr) version->Unref();
  if (base != nullptr) base->Unref();
}

ManifestState::ManifestState(const Comparator* user_comparator)
    : user_comparator_(user_comparator) {}

Status ManifestState::AddFamily(uint32_t id, const std::string& name,
                                const std::string& comparator,
                                const std::string& where) {
  // Without the comparator the files of a level cannot be ordered, nor
  // their overlaps checked.
  const Comparator* ucmp = nullptr;
  for (const Comparator* c :
       {BytewiseComparator(), ReverseBytewiseComparator(), user_comparator_}) {
    if (c != nullptr && comparator == c->Name()) ucmp = c;
  }
  if (ucmp == nullptr) {
    return Status::NotSupported(where, "column family " + name +
                                           " uses comparator " + comparator +
                                           ", which is not known here");
  }
  std::unique_ptr<Family> f(new Family);
  f->name = name;
  f->comparator = comparator;
  f->icmp.reset(new InternalKeyComparator(ucmp));
  f->base = new Version(f->icmp.get(), config::kMaxNumLevels);
  f->base->Ref();
  f->builder.reset(new VersionBuilder(f->icmp.get(), f->base));
  // RocksDB gives each family created a version number.
  versions_created_++;
  families_[id] = std::move(f);
  return Status::OK();
}

Status ManifestState::Apply(const VersionEdit& edit, const std::string& where) {
  const uint32_t id = edit.column_family();
  if (!default_seen_) {
    // The default family exists from the start; its first edit names its
    // comparator.
    default_seen_ = true;
    const bool named = id == 0 && edit.has_comparator();
    Status s = AddFamily(
        0, kDefaultColumnFamilyName,
        named ? edit.comparator() : BytewiseComparator()->Name(), where);
    if (!s.ok()) return s;
  }
  max_column_family_ = std::max(max_column_family_, id);
  if (edit.has_max_column_family()) {
    max_column_family_ = std::max(max_column_family_, edit.max_column_family());
  }
  if (edit.is_column_family_add()) {
    if (id == 0 || families_.count(id) > 0) {
      return Status::Corruption(
          where, "adds column family " + NumberToString(id) + " again");
    }
    Status s = AddFamily(id, edit.column_family_name(),
                         edit.has_comparator() ? edit.comparator()
                                               : BytewiseComparator()->Name(),
                         where);
    if (!s.ok()) return s;
  }
  auto it = families_.find(id);
  if (it == families_.end()) {
    return Status::Corruption(
        where,
        "edits column family " + NumberToString(id) + ", which does not exist");
  }
  Family* f = it->second.get();
  if (edit.has_comparator() && edit.comparator() != f->comparator) {
    return Status::Corruption(
        where, "column family " + f->name + "'s comparator is " +
                   f->comparator + ", an edit names " + edit.comparator());
  }
  if (edit.is_column_family_drop()) {
    if (id == 0) {
      return Status::Corruption(where, "drops the default column family");
    }
    families_.erase(it);
    return Status::OK();
  }
  Status s = f->builder->Apply(edit);
  if (!s.ok()) return Status::Corruption(where, s.getState());
  for (const auto& nf : edit.new_files()) {
    max_file_number_ = std::max(max_file_number_, nf.second.number);
  }
  if (edit.has_log_number()) {
    f->log_number = edit.log_number();
    recorded_.SetLogNumber(f->log_number);
  }
  if (edit.has_next_file_number())
    recorded_.SetNextFile(edit.next_file_number());
  if (edit.has_last_sequence()) recorded_.SetLastSequence(edit.last_sequence());
  return Status::OK();
}

Status ManifestState::Finish(const std::string& manifest,
                             uint64_t manifest_number) {
  const char* missing = !recorded_.has_next_file_number() ? "next file number"
                        : !recorded_.has_log_number()     ? "log number"
                        : !recorded_.has_last_sequence()  ? "last sequence"
                                                          : nullptr;
  if (missing != nullptr) {
    return Status::Corruption(manifest,
                              "no " + std::string(missing) + " recorded");
  }
  // As VersionSet::Recover: the counter passes every number in use.
  next_file_number_ = std::max<uint64_t>(2, recorded_.next_file_number());
  auto mark_used = [this](uint64_t number) {
    next_file_number_ = std::max(next_file_number_, number + 1);
  };
  mark_used(manifest_number);
  mark_used(max_file_number_);
  for (auto& entry : families_) {
    Family* f = entry.second.get();
    mark_used(f->log_number);
    Version* v = new Version(f->icmp.get(), config::kMaxNumLevels);
    v->Ref();
    Status s = f->builder->SaveTo(v);
    if (!s.ok()) {
      v->Unref();
      return Status::Corruption(manifest, s.getState());
    }
    f->version = v;
    f->version_number = versions_created_++;
  }
  return Status::OK();
}

uint64_t ManifestState::min_log_number() const {
  uint64_t min = 0;
  bool first = true;
  for (const auto& entry : families_) {
    if (first || entry.second->log_number < min) {
      min = entry.second->log_number;
      first = false;
    }
  }
  return min;
}

}  // namespace inspect
}  // namespace strata
