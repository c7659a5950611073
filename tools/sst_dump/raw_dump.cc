// raw: every block of a table, in RocksDB sst_dump's <file>_dump.txt
// layout — footer, metaindex, properties, index, each data block, a data
// block summary, then the range deletions. Handles are shown as the hex
// of their encoding; keys of data blocks and the index as user keys (the
// internal key's trailer is in the scan output); each entry as a HEX line
// and an ASCII line with every byte followed by a space (NUL as "\0").

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/dbformat.h"
#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

const char kRule[] = "--------------------------------------\n";

std::string HandleHex(const BlockHandle& handle) {
  std::string encoded;
  handle.EncodeTo(&encoded);
  return ToHex(encoded);
}

std::string Ascii(const Slice& bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i++) {
    if (bytes[i] == '\0') {
      out += "\\0";
    } else {
      out += bytes[i];
    }
    out += ' ';
  }
  return out;
}

// The user key of an internal key; a key too short to be one as it is.
Slice UserKeyOf(const Slice& key) {
  return key.size() >= kInternalKeyTrailerSize ? ExtractUserKey(key) : key;
}

void Entry(std::string* out, const Slice& key, const Slice& value,
           bool value_ascii) {
  out->append("  HEX    ").append(ToHex(key)).append(": ");
  out->append(ToHex(value)).append("\n");
  out->append("  ASCII  ").append(Ascii(key));
  if (value_ascii) out->append(": ").append(Ascii(value));
  out->append("\n  ------\n");
}

const char* MetaName(const std::string& name) {
  if (name == kPropertiesBlockName) return "Properties block handle";
  if (name == kRangeDelBlockName) return "Range deletion block handle";
  if (Slice(name).starts_with(kFilterBlockPrefix)) {
    return "Filter block handle";
  }
  return nullptr;
}

Status DumpDataBlocks(const TableFile& table, std::string* out) {
  const auto& blocks = table.data_blocks();
  uint64_t min_size = UINT64_MAX, max_size = 0, total = 0;
  for (size_t i = 0; i < blocks.size(); i++) {
    const BlockHandle& h = blocks[i].handle;
    char head[64];
    std::snprintf(head, sizeof(head), "Data Block # %" PRIu64 " @ ",
                  static_cast<uint64_t>(i + 1));
    out->append("\n").append(head).append(HandleHex(h)).append("\n");
    out->append(kRule);
    Status s = table.ForEachEntry(
        BlockKind::kData, h, i + 1, /*verify_checksum=*/true,
        [&](const Slice& key, const Slice& value) {
          Entry(out, UserKeyOf(key), value, /*value_ascii=*/true);
          return true;
        });
    if (!s.ok()) return s;
    min_size = std::min(min_size, h.size());
    max_size = std::max(max_size, h.size());
    total += h.size();
  }
  if (blocks.empty()) return Status::OK();
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "\nData Block Summary:\n%s"
                "  # data blocks: %" PRIu64
                "\n"
                "  min data block size: %" PRIu64
                "\n"
                "  max data block size: %" PRIu64
                "\n"
                "  avg data block size: %f\n",
                kRule, static_cast<uint64_t>(blocks.size()), min_size, max_size,
                static_cast<double>(total) / blocks.size());
  out->append(buf);
  return Status::OK();
}

Status DumpTable(const TableFile& table, std::string* out) {
  const Footer& footer = table.footer();
  char buf[128];
  out->append("Footer Details:\n").append(kRule);
  out->append("  metaindex handle: ")
      .append(HandleHex(footer.metaindex_handle))
      .append("\n");
  out->append("  index handle: ").append(HandleHex(footer.index_handle));
  std::snprintf(buf, sizeof(buf),
                "\n  table_magic_number: %" PRIu64 "\n  format version: %u\n",
                kBlockBasedTableMagicNumber, footer.format_version);
  out->append(buf).append("  \n");

  out->append("Metaindex Details:\n").append(kRule);
  for (const NamedHandle& e : table.metaindex()) {
    const char* name = MetaName(e.name);
    out->append("  ").append(name != nullptr ? name : e.name + " handle");
    out->append(": ").append(HandleHex(e.handle)).append("\n");
  }
  out->append("\n").append(FormatProperties(table.properties(), 38));

  out->append("  \nIndex Details:\n").append(kRule);
  out->append("  Block key hex dump: Data block handle\n");
  out->append("  Block key ascii\n\n");
  for (const NamedHandle& e : table.data_blocks()) {
    std::string handle;
    e.handle.EncodeTo(&handle);
    Entry(out, UserKeyOf(e.name), handle, /*value_ascii=*/false);
  }
  Status s = DumpDataBlocks(table, out);
  const BlockHandle* range_dels = table.range_del_handle();
  if (s.ok() && range_dels != nullptr) {
    out->append("\nRange deletions:\n").append(kRule);
    s = table.ForEachEntry(BlockKind::kRangeDel, *range_dels, 0, true,
                           [&](const Slice& key, const Slice& value) {
                             Entry(out, UserKeyOf(key), value, true);
                             return true;
                           });
  }
  return s;
}

}  // namespace

Status RawDump(Env* env, const TableFile& table, std::string* dump_name) {
  std::string base = table.path();
  const std::string ext = ".sst";
  if (base.size() >= ext.size() &&
      base.compare(base.size() - ext.size(), ext.size(), ext) == 0) {
    base.resize(base.size() - ext.size());
  }
  *dump_name = base + "_dump.txt";
  std::string text;
  // What was dumped before an error is written too: it shows where the
  // damage begins.
  Status dumped = DumpTable(table, &text);
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(*dump_name, &file, EnvOptions());
  if (s.ok()) s = file->Append(text);
  if (s.ok()) s = file->Close();
  return dumped.ok() ? s : dumped;
}

}  // namespace sst_dump
}  // namespace strata
