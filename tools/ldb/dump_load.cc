// dump and load: a DB's keys and values as "key ==> value" lines, and
// those lines (from standard input) back into a DB. dump's output, with
// the same hex flags, is load's input: load skips its "Keys in range"
// line.

#include <cinttypes>
#include <memory>

#include "tools/ldb/command.h"
#include "tools/ldb/format.h"
#include "tools/ldb/value_size_histogram.h"

namespace strata {
namespace ldb {

namespace {

const char kArrow[] = " ==> ";

// dump --count_delim: keys are grouped by their prefix up to the first
// delimiter (or NUL) byte, and each group printed as
// "<prefix> => count:<keys>\tsize:<key and value bytes>". As in RocksDB's
// ldb, a key with an empty prefix joins the group after it.
class DelimitedCounter {
 public:
  explicit DelimitedCounter(char delim) : delim_(delim) {}

  void Add(std::FILE* out, const Slice& key, const Slice& value) {
    size_t n = 0;
    while (n < key.size() && key[n] != delim_ && key[n] != '\0') n++;
    const std::string prefix(key.data(), n);
    const uint64_t size = key.size() + value.size();
    if (!group_.empty() && prefix != group_) {
      Print(out);
      count_ = 0;
      size_ = 0;
    }
    group_ = prefix;
    count_++;
    size_ += size;
  }

  void Print(std::FILE* out) const {
    std::fprintf(out, "%s => count:%" PRIu64 "\tsize:%" PRIu64 "\n",
                 group_.c_str(), count_, size_);
  }

 private:
  const char delim_;
  std::string group_;
  uint64_t count_ = 0;
  uint64_t size_ = 0;
};

// Reads one line of in into *line, without its '\n'. False at the end of
// the input (a last line without '\n' is still a line).
bool ReadLine(std::FILE* in, std::string* line) {
  line->clear();
  int c;
  while ((c = std::getc(in)) != EOF) {
    if (c == '\n') return true;
    line->push_back(static_cast<char>(c));
  }
  return !line->empty();
}

bool StartsWith(const std::string& text, const char* prefix) {
  return text.compare(0, std::char_traits<char>::length(prefix), prefix) == 0;
}

}  // namespace

ExecResult RunDump(Invocation* inv) {
  // A file rather than the DB: file_commands.cc.
  if (inv->line().Has("path")) return DumpFile(inv, inv->line().Value("path"));
  KeyRange range;
  int64_t max_keys;
  LDB_RETURN_IF_FAILED(inv->ReadKeyRange(&range));
  LDB_RETURN_IF_FAILED(inv->IntOption("max_keys", -1, &max_keys));
  const CommandLine& line = inv->line();
  const bool count_only = line.Has("count_only");
  const bool count_delim = line.Has("count_delim");
  const std::string delim = line.Value("count_delim", ".");
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  std::FILE* out = inv->out();

  if (line.Has("stats")) {
    std::string stats;
    if (inv->db()->GetProperty(inv->family(), "strata.stats", &stats)) {
      std::fprintf(out, "%s\n", stats.c_str());
    }
  }

  std::unique_ptr<Iterator> it = inv->IterateFrom(range);
  DelimitedCounter groups(delim.empty() ? '.' : delim[0]);
  ValueSizeHistogram value_sizes;
  int64_t count = 0;
  for (; it->Valid() && max_keys != 0 && !range.Past(it->key()); it->Next()) {
    if (max_keys > 0) max_keys--;
    count++;
    if (count_only) value_sizes.Add(it->value().size());
    if (count_delim) {
      groups.Add(out, it->key(), it->value());
    } else if (!count_only) {
      PrintCString(out, inv->EncodeKey(it->key()) + kArrow +
                            inv->EncodeValue(it->value()));
      std::fputc('\n', out);
    }
  }
  if (!it->status().ok()) return ExecResult::Failed(it->status().ToString());

  if (count_delim) {
    groups.Print(out);
  } else {
    std::fprintf(out, "Keys in range: %" PRId64 "\n", count);
  }
  if (count_only) {
    std::fprintf(out, "Value size distribution: \n%s\n",
                 value_sizes.ToString().c_str());
  }
  return ExecResult::Ok();
}

ExecResult RunLoad(Invocation* inv) {
  const CommandLine& line = inv->line();
  if (line.Has("bulk_load")) inv->options()->PrepareForBulkLoad();
  LDB_RETURN_IF_FAILED(inv->OpenDb());
  WriteOptions write_options;
  write_options.disableWAL = line.Has("disable_wal");

  std::string text, key, value;
  uint64_t line_number = 0;
  uint64_t bad_lines = 0;
  while (ReadLine(inv->in(), &text)) {
    line_number++;
    const size_t arrow = text.find(kArrow);
    if (arrow == std::string::npos) {
      // dump's closing line, and a line RocksDB's ldb once printed, are
      // not data.
      if (!StartsWith(text, "Keys in range:") &&
          !StartsWith(text, "Created bg thread 0x")) {
        bad_lines++;
      }
      continue;
    }
    ExecResult decoded = inv->DecodeKey(text.substr(0, arrow), &key);
    if (decoded.ok()) {
      decoded = inv->DecodeValue(
          text.substr(arrow + std::char_traits<char>::length(kArrow)), &value);
    }
    if (!decoded.ok()) {
      return ExecResult::Failed("line " + std::to_string(line_number) + ": " +
                                decoded.message());
    }
    Status s = inv->db()->Put(write_options, inv->family(), key, value);
    if (!s.ok()) return ExecResult::Failed(s.ToString());
  }
  if (std::ferror(inv->in())) {
    return ExecResult::Failed("Reading the standard input failed");
  }
  if (bad_lines > 0) {
    std::fprintf(inv->out(), "Warning: %" PRIu64 " bad lines ignored.\n",
                 bad_lines);
  }

  Status s;
  if (write_options.disableWAL) {
    // Without the WAL the writes are safe only once in a table.
    s = inv->db()->Flush(FlushOptions(), inv->family());
  }
  if (s.ok() && line.Has("compact")) {
    s = inv->db()->CompactRange(CompactRangeOptions(), inv->family(), nullptr,
                                nullptr);
  }
  if (!s.ok()) return ExecResult::Failed(s.ToString());
  return ExecResult::Ok();
}

}  // namespace ldb
}  // namespace strata
