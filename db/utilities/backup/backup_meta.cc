// The metadata file's text (docs/formats/backup.md):
//
//   strata-backup 1
//   id <id>
//   timestamp <seconds>
//   sequence <last sequence number held>
//   app_metadata [<hex, two upper-case digits a byte>]
//   files <count>
//   file <stored path> <DB file name> <size> <crc32c>     (count lines)
//   checksum <crc32c of every byte before this line>
//
// Numbers are decimal, each line ends with '\n'. The checksum catches a
// damaged or cut file before any line is believed; the parser still
// checks every line, since a file written by hand carries a right
// checksum over wrong text as easily.

#include "db/utilities/backup/backup_meta.h"

#include <cinttypes>
#include <cstdio>

#include "db/filename.h"
#include "util/crc32c.h"
#include "util/logging.h"

namespace strata {
namespace backup {

namespace {

constexpr char kHeader[] = "strata-backup 1";
constexpr char kChecksumKey[] = "checksum ";

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool FromHex(const std::string& hex, std::string* bytes) {
  if (hex.size() % 2 != 0) return false;
  bytes->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexDigit(hex[i]), lo = HexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

// A whole token as a decimal number no larger than max.
bool ParseNumber(const std::string& token, uint64_t max, uint64_t* value) {
  Slice in(token);
  return ConsumeDecimalNumber(&in, value) && in.empty() && *value <= max;
}

std::vector<std::string> SplitWords(const std::string& line) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= line.size()) {
    const size_t space = line.find(' ', start);
    const size_t end = space == std::string::npos ? line.size() : space;
    words.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

// A stored path of backup id: shared/<name>, shared_checksum/<name> or
// private/<id>/<name>, with a plain <name>.
bool IsStoredPath(const std::string& path, BackupID id) {
  const std::string private_prefix = "private/" + std::to_string(id) + "/";
  std::string name;
  for (const std::string& prefix :
       {std::string("shared/"), std::string("shared_checksum/"),
        private_prefix}) {
    if (path.compare(0, prefix.size(), prefix) == 0) {
      name = path.substr(prefix.size());
      break;
    }
  }
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of("/\\") == std::string::npos;
}

// Reads the lines of a metadata file, reporting errors by line number.
class MetaParser {
 public:
  MetaParser(const std::string& path, const std::string& text)
      : path_(path), text_(text) {}

  // The next line's words; false (and *s set) at the end of the text.
  bool NextLine(std::vector<std::string>* words, Status* s) {
    line_++;
    if (pos_ >= text_.size()) {
      *s = Error("ends early");
      return false;
    }
    const size_t end = text_.find('\n', pos_);
    *words = SplitWords(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }

  // The next line, which must be "<key> <number>".
  Status Number(const char* key, uint64_t max, uint64_t* value) {
    std::vector<std::string> words;
    Status s;
    if (!NextLine(&words, &s)) return s;
    if (words.size() != 2 || words[0] != key ||
        !ParseNumber(words[1], max, value)) {
      return Error(std::string("expected \"") + key + " <number>\"");
    }
    return Status::OK();
  }

  Status Error(const std::string& what) const {
    return Status::Corruption(path_,
                              "line " + std::to_string(line_) + ": " + what);
  }

  bool AtEnd() const { return pos_ >= text_.size(); }

 private:
  const std::string& path_;
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 0;
};

Status ParseFileLine(MetaParser* parser, BackupID id, BackupFile* file) {
  std::vector<std::string> words;
  Status s;
  if (!parser->NextLine(&words, &s)) return s;
  uint64_t size, crc;
  if (words.size() != 5 || words[0] != "file" ||
      !ParseNumber(words[3], UINT64_MAX, &size) ||
      !ParseNumber(words[4], UINT32_MAX, &crc)) {
    return parser->Error(
        "expected \"file <path> <DB file name> <size> <crc32c>\"");
  }
  if (!IsStoredPath(words[1], id)) {
    return parser->Error("not a file of this backup: " + words[1]);
  }
  if (!IsRestorableName(words[2])) {
    return parser->Error("not a DB file name: " + words[2]);
  }
  file->stored = words[1];
  file->db_name = words[2];
  file->size = size;
  file->crc32c = static_cast<uint32_t>(crc);
  return Status::OK();
}

Status ParseBody(MetaParser* parser, BackupID id, BackupMeta* meta) {
  std::vector<std::string> words;
  Status s;
  if (!parser->NextLine(&words, &s)) return s;
  if (words.size() != 2 || words[0] + " " + words[1] != kHeader) {
    return parser->Error(
        words[0] == "strata-backup"
            ? "format version " + words.back() + " is not one this strata reads"
            : std::string("not a strata backup metadata file"));
  }
  uint64_t value;
  s = parser->Number("id", UINT32_MAX, &value);
  if (!s.ok()) return s;
  if (value != id) {
    return parser->Error("records backup " + std::to_string(value) + ", not " +
                         std::to_string(id));
  }
  meta->id = id;
  // The timestamp may be negative.
  if (!parser->NextLine(&words, &s)) return s;
  const bool negative =
      words.size() == 2 && !words[1].empty() && words[1][0] == '-';
  if (words.size() != 2 || words[0] != "timestamp" ||
      !ParseNumber(words[1].substr(negative ? 1 : 0), INT64_MAX, &value)) {
    return parser->Error("expected \"timestamp <seconds>\"");
  }
  meta->timestamp =
      negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
  s = parser->Number("sequence", UINT64_MAX, &meta->sequence);
  if (!s.ok()) return s;
  if (!parser->NextLine(&words, &s)) return s;
  if (words.empty() || words.size() > 2 || words[0] != "app_metadata" ||
      !FromHex(words.size() == 2 ? words[1] : "", &meta->app_metadata)) {
    return parser->Error("expected \"app_metadata <hex>\"");
  }
  uint64_t count;
  s = parser->Number("files", UINT32_MAX, &count);
  if (!s.ok()) return s;
  meta->files.clear();
  for (uint64_t i = 0; i < count; i++) {
    BackupFile file;
    s = ParseFileLine(parser, id, &file);
    if (!s.ok()) return s;
    meta->files.push_back(std::move(file));
  }
  return Status::OK();
}

}  // namespace

bool IsRestorableName(const std::string& name) {
  uint64_t number;
  FileType type;
  if (!ParseFileName(name, &number, &type)) return false;
  return type == kTableFile || type == kWalFile || type == kDescriptorFile ||
         type == kOptionsFile || type == kCurrentFile;
}

uint64_t BackupMeta::TotalSize() const {
  uint64_t total = 0;
  for (const BackupFile& f : files) total += f.size;
  return total;
}

std::string EncodeBackupMeta(const BackupMeta& meta) {
  std::string text = std::string(kHeader) + "\n";
  text += "id " + std::to_string(meta.id) + "\n";
  text += "timestamp " + std::to_string(meta.timestamp) + "\n";
  text += "sequence " + std::to_string(meta.sequence) + "\n";
  text += "app_metadata";
  if (!meta.app_metadata.empty()) {
    text += " " + Slice(meta.app_metadata).ToString(/*hex=*/true);
  }
  text += "\nfiles " + std::to_string(meta.files.size()) + "\n";
  for (const BackupFile& f : meta.files) {
    text += "file " + f.stored + " " + f.db_name + " " +
            std::to_string(f.size) + " " + std::to_string(f.crc32c) + "\n";
  }
  const uint32_t crc = crc32c::Value(text.data(), text.size());
  return text + kChecksumKey + std::to_string(crc) + "\n";
}

Status DecodeBackupMeta(const std::string& path, BackupID id,
                        const Slice& contents, BackupMeta* meta) {
  const std::string text = contents.ToString();
  // The checksum line is the last; everything before it is covered.
  const size_t body_end =
      text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string::npos;
  if (text.empty() || text.back() != '\n' || body_end == std::string::npos ||
      text.compare(body_end + 1, sizeof(kChecksumKey) - 1, kChecksumKey) != 0) {
    return Status::Corruption(path, "cut short: no checksum line at its end");
  }
  const std::string body = text.substr(0, body_end + 1);
  uint64_t recorded;
  const std::string value =
      text.substr(body_end + sizeof(kChecksumKey),
                  text.size() - body_end - sizeof(kChecksumKey) - 1);
  if (!ParseNumber(value, UINT32_MAX, &recorded)) {
    return Status::Corruption(path, "malformed checksum line");
  }
  const uint32_t actual = crc32c::Value(body.data(), body.size());
  if (actual != recorded) {
    return Status::Corruption(path, "checksum mismatch: the file says " +
                                        value + ", its text has " +
                                        std::to_string(actual));
  }
  MetaParser parser(path, body);
  Status s = ParseBody(&parser, id, meta);
  if (s.ok() && !parser.AtEnd()) {
    std::vector<std::string> ignored;
    parser.NextLine(&ignored, &s);
    s = parser.Error("more lines than the file count");
  }
  return s;
}

}  // namespace backup
}  // namespace strata
