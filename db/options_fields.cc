// The option tables of db/options_fields.h, and the code that applies
// text to them.

#include "db/options_fields.h"

#include <cstdio>
#include <memory>

#include "db/option_values.h"
#include "strata/cache.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "table/block_based_table_factory.h"
#include "util/bloom.h"

namespace strata {

namespace {

// The struct and type of a data member pointer.
template <typename M>
struct MemberOf;
template <typename S, typename T>
struct MemberOf<T S::*> {
  using Struct = S;
};

template <auto kMember>
using StructOf = typename MemberOf<decltype(kMember)>::Struct;

template <auto kMember>
std::string PrintMember(const StructOf<kMember>& s) {
  return PrintOptionValue(s.*kMember);
}

template <auto kMember>
bool ParseMember(const std::string& v, StructOf<kMember>* s) {
  return ParseOptionValue(v, &(s->*kMember));
}

// A plain field: the value codecs of db/option_values.h. write=false keeps
// a field strata has and RocksDB does not out of the OPTIONS file, where
// RocksDB's reader would refuse it; text may still set it.
template <auto kMember>
OptionField<StructOf<kMember>> Field(const char* name, bool is_mutable = false,
                                     bool write = true) {
  OptionField<StructOf<kMember>> f;
  f.name = name;
  f.is_mutable = is_mutable;
  if (write) f.print = PrintMember<kMember>;
  f.parse = ParseMember<kMember>;
  return f;
}

template <auto kMember>
OptionField<StructOf<kMember>> Mutable(const char* name) {
  return Field<kMember>(name, true);
}

// RocksDB names its fixed-prefix transform "rocksdb.FixedPrefix.<n>";
// strata's is "strata.FixedPrefix.<n>". Both, and "fixed:<n>", read.
constexpr char kFixedPrefix[] = "FixedPrefix.";

std::string PrintPrefixExtractor(const ColumnFamilyOptions& o) {
  if (o.prefix_extractor == nullptr) return "nullptr";
  std::string name = o.prefix_extractor->Name();
  if (name.compare(0, 7, "strata.") == 0) name = "rocksdb." + name.substr(7);
  return name;
}

bool ParsePrefixExtractor(const std::string& v, ColumnFamilyOptions* o) {
  if (v == "nullptr") {
    o->prefix_extractor = nullptr;
    return true;
  }
  std::string length;
  const size_t fixed = v.find(kFixedPrefix);
  if ((v.compare(0, 8, "rocksdb.") == 0 || v.compare(0, 7, "strata.") == 0) &&
      fixed != std::string::npos && v.find('.') + 1 == fixed) {
    length = v.substr(fixed + sizeof(kFixedPrefix) - 1);
  } else if (v.compare(0, 6, "fixed:") == 0) {
    length = v.substr(6);
  } else {
    return false;
  }
  unsigned long long n = 0;
  if (!ParseOptionValue(length, &n) || n == 0) return false;
  o->prefix_extractor.reset(NewFixedPrefixTransform(static_cast<size_t>(n)));
  return true;
}

// Builtin comparators are set by name; another name leaves the field for
// the caller (a comparator is code, the file holds only its name).
bool ParseComparator(const std::string& v, ColumnFamilyOptions* o) {
  if (v == BytewiseComparator()->Name()) {
    o->comparator = BytewiseComparator();
  } else if (v == ReverseBytewiseComparator()->Name()) {
    o->comparator = ReverseBytewiseComparator();
  }
  return true;
}

bool ParseMemtableFactory(const std::string& v, ColumnFamilyOptions* o) {
  const std::string id = OptionObjectId(v);
  if (id == SkipListFactory::kClassName()) {
    o->memtable_factory = std::make_shared<SkipListFactory>();
  } else if (id == VectorRepFactory::kClassName()) {
    o->memtable_factory = std::make_shared<VectorRepFactory>();
  } else {
    return false;
  }
  return true;
}

// The table section after table_factory sets the options; here only the
// kind, which must be one strata builds.
bool ParseTableFactory(const std::string& v, ColumnFamilyOptions* o) {
  if (OptionObjectId(v) != "BlockBasedTable") return false;
  if (o->table_factory == nullptr ||
      o->table_factory->GetOptions<BlockBasedTableOptions>() == nullptr) {
    o->table_factory.reset(NewBlockBasedTableFactory());
  }
  return true;
}

std::string PrintFilterPolicy(const BlockBasedTableOptions& t) {
  if (t.filter_policy == nullptr) return "nullptr";
  const auto* bloom =
      dynamic_cast<const BloomFilterPolicy*>(t.filter_policy.get());
  if (bloom == nullptr) return t.filter_policy->Name();
  char buf[64];
  std::snprintf(buf, sizeof(buf), "bloomfilter:%g:false",
                bloom->millibits_per_key() / 1000.0);
  return buf;
}

// "bloomfilter:<bits_per_key>:<use_block_based_builder>" or "nullptr".
bool ParseFilterPolicy(const std::string& v, BlockBasedTableOptions* t) {
  if (v == "nullptr") {
    t->filter_policy = nullptr;
    return true;
  }
  const std::string prefix = "bloomfilter:";
  if (v.compare(0, prefix.size(), prefix) != 0) return false;
  std::string rest = v.substr(prefix.size());
  const size_t colon = rest.find(':');
  bool block_based = false;
  if (colon != std::string::npos) {
    if (!ParseOptionValue(rest.substr(colon + 1), &block_based)) return false;
    rest.resize(colon);
  }
  double bits = 0;
  if (!ParseOptionValue(rest, &bits) || bits < 0) return false;
  t->filter_policy.reset(NewBloomFilterPolicy(bits, block_based));
  return true;
}

}  // namespace

const OptionTable<DBOptions>& DBOptionFields() {
  using O = DBOptions;
  static const OptionTable<O>* table = new OptionTable<O>{
      Field<&O::create_if_missing>("create_if_missing"),
      Field<&O::error_if_exists>("error_if_exists"),
      Field<&O::create_missing_column_families>(
          "create_missing_column_families"),
      Field<&O::atomic_flush>("atomic_flush"),
      Field<&O::db_write_buffer_size>("db_write_buffer_size"),
      Field<&O::allow_2pc>("allow_2pc"),
      Field<&O::paranoid_checks>("paranoid_checks"),
      Field<&O::fail_if_options_file_error>("fail_if_options_file_error"),
      Field<&O::use_fsync>("use_fsync"),
      Field<&O::allow_mmap_reads>("allow_mmap_reads"),
      Field<&O::allow_mmap_writes>("allow_mmap_writes"),
      Field<&O::use_direct_reads>("use_direct_reads"),
      Field<&O::use_direct_io_for_flush_and_compaction>(
          "use_direct_io_for_flush_and_compaction"),
      Field<&O::allow_fallocate>("allow_fallocate"),
      Field<&O::writable_file_max_buffer_size>("writable_file_max_buffer_size"),
      Field<&O::compaction_readahead_size>("compaction_readahead_size"),
      Field<&O::wal_write_through>("wal_write_through", false, false),
      Field<&O::wal_recovery_mode>("wal_recovery_mode"),
      Field<&O::max_open_files>("max_open_files"),
      Field<&O::max_file_opening_threads>("max_file_opening_threads"),
      Field<&O::max_background_jobs>("max_background_jobs"),
      Field<&O::max_bgerror_resume_count>("max_bgerror_resume_count"),
      Field<&O::max_background_compactions>("max_background_compactions"),
      Field<&O::max_background_flushes>("max_background_flushes"),
      Field<&O::allow_concurrent_memtable_write>(
          "allow_concurrent_memtable_write"),
      Field<&O::enable_pipelined_write>("enable_pipelined_write"),
      Field<&O::unordered_write>("unordered_write"),
      Field<&O::unordered_write_snapshot_safe>("unordered_write_snapshot_safe",
                                               false, false),
      Field<&O::enable_write_thread_adaptive_yield>(
          "enable_write_thread_adaptive_yield"),
      Field<&O::write_thread_max_yield_usec>("write_thread_max_yield_usec"),
      Field<&O::write_thread_slow_yield_usec>("write_thread_slow_yield_usec"),
      Field<&O::write_thread_sync_gather_usec>("write_thread_sync_gather_usec",
                                               false, false),
  };
  return *table;
}

const OptionTable<ColumnFamilyOptions>& ColumnFamilyOptionFields() {
  using O = ColumnFamilyOptions;
  static const OptionTable<O>* table = new OptionTable<O>{
      {"comparator", false,
       [](const O& o) { return std::string(o.comparator->Name()); },
       ParseComparator},
      {"merge_operator", false,
       [](const O& o) {
         return o.merge_operator == nullptr
                    ? std::string("nullptr")
                    : std::string(o.merge_operator->Name());
       },
       // A merge operator is code: the caller sets it.
       [](const std::string&, O*) { return true; }},
      // Code as well: a name read back sets nothing.
      {"compaction_filter", false,
       [](const O& o) {
         return o.compaction_filter == nullptr
                    ? std::string("nullptr")
                    : std::string(o.compaction_filter->Name());
       },
       [](const std::string&, O*) { return true; }},
      {"compaction_filter_factory", false,
       [](const O& o) {
         return o.compaction_filter_factory == nullptr
                    ? std::string("nullptr")
                    : std::string(o.compaction_filter_factory->Name());
       },
       [](const std::string&, O*) { return true; }},
      Mutable<&O::write_buffer_size>("write_buffer_size"),
      Field<&O::memtable_huge_page_size>("memtable_huge_page_size"),
      Field<&O::paranoid_file_checks>("paranoid_file_checks"),
      Mutable<&O::max_write_buffer_number>("max_write_buffer_number"),
      Field<&O::min_write_buffer_number_to_merge>(
          "min_write_buffer_number_to_merge"),
      {"memtable_factory", false,
       // None is the skip list (db_impl_families.cc).
       [](const O& o) {
         return std::string(o.memtable_factory == nullptr
                                ? SkipListFactory::kClassName()
                                : o.memtable_factory->Name());
       },
       ParseMemtableFactory},
      Field<&O::inplace_update_support>("inplace_update_support"),
      Field<&O::inplace_update_num_locks>("inplace_update_num_locks"),
      Field<&O::compression>("compression"),
      Field<&O::compression_per_level>("compression_per_level"),
      Field<&O::num_levels>("num_levels"),
      Field<&O::compaction_style>("compaction_style"),
      Mutable<&O::level0_file_num_compaction_trigger>(
          "level0_file_num_compaction_trigger"),
      Mutable<&O::level0_slowdown_writes_trigger>(
          "level0_slowdown_writes_trigger"),
      Mutable<&O::level0_stop_writes_trigger>("level0_stop_writes_trigger"),
      Mutable<&O::max_bytes_for_level_base>("max_bytes_for_level_base"),
      Mutable<&O::max_bytes_for_level_multiplier>(
          "max_bytes_for_level_multiplier"),
      Mutable<&O::target_file_size_base>("target_file_size_base"),
      Mutable<&O::target_file_size_multiplier>("target_file_size_multiplier"),
      Field<&O::level_compaction_dynamic_level_bytes>(
          "level_compaction_dynamic_level_bytes"),
      Mutable<&O::max_compaction_bytes>("max_compaction_bytes"),
      Field<&O::soft_pending_compaction_bytes_limit>(
          "soft_pending_compaction_bytes_limit"),
      Field<&O::hard_pending_compaction_bytes_limit>(
          "hard_pending_compaction_bytes_limit"),
      Mutable<&O::disable_auto_compactions>("disable_auto_compactions"),
      {"table_factory", false,
       [](const O& o) { return std::string(o.table_factory->Name()); },
       ParseTableFactory},
      {"prefix_extractor", false, PrintPrefixExtractor, ParsePrefixExtractor},
      Field<&O::memtable_prefix_bloom_size_ratio>(
          "memtable_prefix_bloom_size_ratio"),
      Field<&O::memtable_whole_key_filtering>("memtable_whole_key_filtering"),
  };
  return *table;
}

const OptionTable<BlockBasedTableOptions>& BlockBasedTableOptionFields() {
  using O = BlockBasedTableOptions;
  static const OptionTable<O>* table = new OptionTable<O>{
      Field<&O::cache_index_and_filter_blocks>("cache_index_and_filter_blocks"),
      Field<&O::cache_index_and_filter_blocks_with_high_priority>(
          "cache_index_and_filter_blocks_with_high_priority"),
      Field<&O::no_block_cache>("no_block_cache"),
      Field<&O::block_size>("block_size"),
      Field<&O::block_restart_interval>("block_restart_interval"),
      Field<&O::index_block_restart_interval>("index_block_restart_interval"),
      {"filter_policy", false, PrintFilterPolicy, ParseFilterPolicy},
      Field<&O::whole_key_filtering>("whole_key_filtering"),
      // Not in the file (a cache is shared, not configured per file):
      // "block_cache=<bytes>" in a string makes an LRU cache of that size.
      {"block_cache", false, nullptr,
       [](const std::string& v, O* o) {
         unsigned long long bytes = 0;
         if (!ParseOptionValue(v, &bytes)) return false;
         o->block_cache = NewLRUCache(static_cast<size_t>(bytes));
         return true;
       }},
  };
  return *table;
}

std::string UnescapeOptionValue(const std::string& value) {
  std::string result;
  result.reserve(value.size());
  for (size_t i = 0; i < value.size(); i++) {
    if (value[i] == '\\' && i + 1 < value.size()) i++;
    result += value[i];
  }
  return result;
}

template <typename Struct>
Status SetOptionField(const OptionTable<Struct>& table, OptionSection section,
                      const ConfigOptions& config, const std::string& where,
                      const std::string& name, const std::string& value,
                      Struct* target) {
  for (const OptionField<Struct>& field : table) {
    if (field.name != name) continue;
    if (config.mutable_options_only && !field.is_mutable) {
      return Status::InvalidArgument(
          where + "not an option strata can change while open", name);
    }
    const std::string text =
        config.input_strings_escaped ? UnescapeOptionValue(value) : value;
    if (!field.parse(text, target)) {
      return Status::InvalidArgument(where + "bad value for " + name, value);
    }
    return Status::OK();
  }
  if (IsIgnoredOption(section, name) && !config.mutable_options_only) {
    return Status::OK();
  }
  if (config.ignore_unknown_options) return Status::OK();
  return Status::InvalidArgument(where + "unknown option", name);
}

template <typename Struct>
Status SetOptionFields(const OptionTable<Struct>& table, OptionSection section,
                       const ConfigOptions& config,
                       const std::unordered_map<std::string, std::string>& map,
                       const Struct& base, Struct* result) {
  Struct changed = base;
  for (const auto& entry : map) {
    Status s = SetOptionField(table, section, config, "", entry.first,
                              entry.second, &changed);
    if (!s.ok()) return s;
  }
  *result = changed;
  return Status::OK();
}

template <typename Struct>
std::string PrintOptionFields(const OptionTable<Struct>& table,
                              const Struct& s) {
  std::string result;
  for (const OptionField<Struct>& field : table) {
    if (!field.print) continue;
    // An empty value (no compression_per_level) is left out, as RocksDB
    // does.
    const std::string value = field.print(s);
    if (value.empty()) continue;
    result += "  " + field.name + "=" + value + "\n";
  }
  return result;
}

#define STRATA_OPTION_TABLE_FUNCTIONS(Struct)                                \
  template Status SetOptionField<Struct>(                                    \
      const OptionTable<Struct>&, OptionSection, const ConfigOptions&,       \
      const std::string&, const std::string&, const std::string&, Struct*);  \
  template Status SetOptionFields<Struct>(                                   \
      const OptionTable<Struct>&, OptionSection, const ConfigOptions&,       \
      const std::unordered_map<std::string, std::string>&, const Struct&,    \
      Struct*);                                                              \
  template std::string PrintOptionFields<Struct>(const OptionTable<Struct>&, \
                                                 const Struct&);
STRATA_OPTION_TABLE_FUNCTIONS(DBOptions)
STRATA_OPTION_TABLE_FUNCTIONS(ColumnFamilyOptions)
STRATA_OPTION_TABLE_FUNCTIONS(BlockBasedTableOptions)
#undef STRATA_OPTION_TABLE_FUNCTIONS

}  // namespace strata
