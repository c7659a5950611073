#include "test/table/table_test_util.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "env/file_writer.h"
#include "util/random.h"

namespace strata {
namespace test {

TableEntries RandomTableEntries(uint32_t seed, int num_user_keys,
                                const InternalKeyComparator& icmp,
                                bool large_values) {
  Random rnd(seed);
  static const char* const kPrefixes[] = {"", "a", "ab", "abc", "user/", "z"};
  std::set<std::string> user_keys;
  while (static_cast<int>(user_keys.size()) < num_user_keys) {
    std::string key = kPrefixes[rnd.Uniform(6)];
    const int extra = 1 + static_cast<int>(rnd.Uniform(20));
    for (int i = 0; i < extra; i++) {
      // Mostly printable, sometimes the extreme bytes.
      const uint32_t r = rnd.Uniform(40);
      key += r == 0 ? '\0' : r == 1 ? '\xff' : static_cast<char>('a' + r % 26);
    }
    user_keys.insert(key.substr(0, 24));
  }
  TableEntries entries;
  for (const std::string& user_key : user_keys) {
    const int versions = 1 + static_cast<int>(rnd.Uniform(3));
    SequenceNumber seq = 1 + rnd.Uniform(1000000);
    for (int v = 0; v < versions; v++) {
      ValueType type = kTypeValue;
      const uint32_t r = rnd.Uniform(16);
      if (r == 0) type = kTypeDeletion;
      if (r == 1) type = kTypeMerge;
      if (r == 2) type = kTypeSingleDeletion;
      std::string value;
      if (type != kTypeDeletion && type != kTypeSingleDeletion) {
        const size_t len = large_values && rnd.OneIn(50)
                               ? 3000 + rnd.Uniform(5000)
                               : rnd.Uniform(100);
        // Compressible: runs of a few letters.
        for (size_t i = 0; i < len; i++) {
          value += static_cast<char>('a' + (i / 7 + rnd.Uniform(2)) % 5);
        }
      }
      std::string ikey;
      AppendInternalKey(&ikey, ParsedInternalKey(user_key, seq, type));
      entries.emplace_back(std::move(ikey), std::move(value));
      seq += 1 + rnd.Uniform(1000);  // next (older) version: lower sequence
    }
  }
  SortTableEntries(icmp, &entries);
  return entries;
}

void SortTableEntries(const InternalKeyComparator& icmp,
                      TableEntries* entries) {
  std::sort(entries->begin(), entries->end(),
            [&icmp](const auto& a, const auto& b) {
              return icmp.Compare(a.first, b.first) < 0;
            });
}

Status BuildTable(Env* env, const std::string& fname,
                  const TableFactory& factory,
                  const TableBuilderOptions& options,
                  const TableEntries& entries, uint64_t* file_size) {
  std::unique_ptr<WritableFile> file;
  EnvOptions env_options;
  Status s = env->NewWritableFile(fname, &file, env_options);
  if (!s.ok()) return s;
  WritableFileWriter writer(std::move(file), fname, env_options);
  std::unique_ptr<TableBuilder> builder(
      factory.NewTableBuilder(options, &writer));
  for (const auto& entry : entries) {
    builder->Add(entry.first, entry.second);
    if (!builder->status().ok()) break;
  }
  s = builder->status();
  if (s.ok()) {
    s = builder->Finish();
  } else {
    builder->Abandon();
  }
  Status c = writer.Close();
  if (s.ok()) s = c;
  if (s.ok() && builder->FileSize() != writer.GetFileSize()) {
    s = Status::Corruption("builder's FileSize() is not the file's size");
  }
  *file_size = builder->FileSize();
  return s;
}

Status BuildTableInMemory(const TableFactory& factory,
                          const TableBuilderOptions& options,
                          const TableEntries& entries, std::string* contents) {
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  uint64_t size = 0;
  Status s = BuildTable(mem.get(), "/table", factory, options, entries, &size);
  if (s.ok()) s = ReadFileToString(mem.get(), "/table", contents);
  return s;
}

Status StringFile::Read(uint64_t offset, size_t n, Slice* result,
                        char* scratch) const {
  if (reads_ != nullptr) reads_->fetch_add(1, std::memory_order_relaxed);
  if (offset >= contents_.size()) {
    *result = Slice(scratch, 0);
    return Status::OK();
  }
  const size_t count =
      std::min(n, contents_.size() - static_cast<size_t>(offset));
  if (in_memory_) {
    *result = Slice(contents_.data() + offset, count);
  } else {
    std::memcpy(scratch, contents_.data() + offset, count);
    *result = Slice(scratch, count);
  }
  return Status::OK();
}

Status OpenTable(Env* env, const std::string& fname,
                 const EnvOptions& env_options, const TableFactory& factory,
                 const TableReaderOptions& options,
                 std::unique_ptr<TableReader>* table, std::atomic<int>* reads) {
  uint64_t size = 0;
  Status s = env->GetFileSize(fname, &size);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> file;
  s = env->NewRandomAccessFile(fname, &file, env_options);
  if (!s.ok()) return s;
  if (reads != nullptr) file.reset(new CountingFile(std::move(file), reads));
  std::unique_ptr<RandomAccessFileReader> reader(
      new RandomAccessFileReader(std::move(file), fname));
  return factory.NewTableReader(options, std::move(reader), size, table);
}

namespace {

bool CollectEntry(void* arg, const Slice& key, const Slice& value, CachePin*) {
  static_cast<TableEntries*>(arg)->emplace_back(key.ToString(),
                                                value.ToString());
  return true;
}

}  // namespace

GetResult CollectGet(TableReader* table, const ReadOptions& read_options,
                     const Slice& internal_key) {
  GetResult result;
  result.status =
      table->Get(read_options, internal_key, &result.entries, &CollectEntry);
  return result;
}

bool IsLocatedCorruption(const Status& s, const std::string& file_name) {
  if (!s.IsCorruption()) return false;
  const std::string msg = s.ToString();
  if (msg.find(file_name) == std::string::npos) return false;
  for (const char* marker : {" at ", "offset "}) {
    for (size_t pos = msg.find(marker); pos != std::string::npos;
         pos = msg.find(marker, pos + 1)) {
      const size_t digit = pos + std::strlen(marker);
      if (digit < msg.size() &&
          std::isdigit(static_cast<unsigned char>(msg[digit]))) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace test
}  // namespace strata
