// recompress: the table's entries rebuilt, in memory, with each codec
// (--compression_types, default every codec strata knows) and blocks of
// --set_block_size bytes, reporting the size each would take. The rebuilt
// table has no filter (its bits do not depend on the codec). Data blocks
// that did not save an eighth are stored raw ("Not compressed (ratio)");
// strata's builder never gives up on a block, so "abort" counts none.
// Time Taken is the build's wall time.

#include <cinttypes>
#include <cstdio>

#include "db/dbformat.h"
#include "env/file_writer.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "table/compression.h"
#include "tools/sst_dump/commands.h"

namespace strata {
namespace sst_dump {

namespace {

struct Rebuilt {
  uint64_t size = 0;
  uint64_t blocks = 0;
  uint64_t compressed = 0;
  uint64_t micros = 0;
};

// Hands every entry of the table, point entries then range tombstones,
// to the builder.
Status AddAll(const TableFile& table, TableBuilder* builder) {
  const auto add = [&](const Slice& key, const Slice& value) {
    builder->Add(key, value);
    return builder->status().ok();
  };
  const auto& blocks = table.data_blocks();
  for (size_t i = 0; i < blocks.size(); i++) {
    Status s = table.ForEachEntry(BlockKind::kData, blocks[i].handle, i + 1,
                                  true, add);
    if (!s.ok()) return s;
  }
  const BlockHandle* range_dels = table.range_del_handle();
  if (range_dels != nullptr) {
    Status s =
        table.ForEachEntry(BlockKind::kRangeDel, *range_dels, 0, true, add);
    if (!s.ok()) return s;
  }
  return builder->status();
}

Status Rebuild(Env* mem_env, const TableFile& table,
               const InternalKeyComparator& icmp, CompressionType type,
               size_t block_size, Rebuilt* out) {
  const std::string name = "/recompressed.sst";
  std::unique_ptr<WritableFile> file;
  Status s = mem_env->NewWritableFile(name, &file, EnvOptions());
  if (!s.ok()) return s;
  WritableFileWriter writer(std::move(file), name, EnvOptions());
  BlockBasedTableOptions table_options;
  table_options.block_size = block_size;
  TableBuilderOptions options;
  options.icmp = &icmp;
  options.compression = type;
  options.creation_time = table.properties().creation_time;
  const uint64_t start = mem_env->NowMicros();
  {
    BlockBasedTableBuilder builder(table_options, options, &writer);
    s = AddAll(table, &builder);
    if (s.ok()) {
      s = builder.Finish();
    } else {
      builder.Abandon();
    }
  }
  if (s.ok()) s = writer.Close();
  out->micros = mem_env->NowMicros() - start;
  if (!s.ok()) return s;

  std::unique_ptr<TableFile> rebuilt;
  s = TableFile::Open(mem_env, name, &rebuilt);
  if (!s.ok()) return s;
  out->size = rebuilt->file_size();
  out->blocks = rebuilt->data_blocks().size();
  for (const NamedHandle& b : rebuilt->data_blocks()) {
    unsigned char stored = 0;
    s = rebuilt->ReadStoredType(b.handle, &stored);
    if (!s.ok()) return s;
    if (stored != kNoCompression) out->compressed++;
  }
  return mem_env->RemoveFile(name);
}

double Percent(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / whole;
}

}  // namespace

Status Recompress(Env* env, const TableFile& table, const Flags& flags) {
  if (table.user_comparator() == nullptr) {
    return Status::NotSupported(
        table.path(),
        "recompress needs the table's comparator, unknown to "
        "sst_dump: " +
            table.properties().comparator_name);
  }
  std::vector<CompressionType> types = flags.compression_types;
  if (types.empty()) {
    types = {kNoCompression, kSnappyCompression, kZlibCompression};
  }
  const InternalKeyComparator icmp(table.user_comparator());
  std::unique_ptr<Env> mem_env(NewMemEnv(env));
  std::printf("Block Size: %" PRIu64 "\n",
              static_cast<uint64_t>(flags.block_size));
  for (CompressionType type : types) {
    if (!CompressionSupported(type)) {
      std::printf("Unsupported compression type: %s.\n",
                  CompressionTypeFlagName(type));
      continue;
    }
    Rebuilt r;
    Status s = Rebuild(mem_env.get(), table, icmp, type, flags.block_size, &r);
    if (!s.ok()) return s;
    const uint64_t raw = r.blocks - r.compressed;
    std::printf("Compression: %-24s\n", CompressionTypeFlagName(type));
    std::printf("Size: %10" PRIu64 " Blocks: %6" PRIu64
                " Time Taken: %10" PRIu64 " microsecs Compressed: %6" PRIu64
                " (%5.1f%%) Not compressed (ratio): %6" PRIu64
                " (%5.1f%%) Not compressed (abort): %6d (%5.1f%%)\n",
                r.size, r.blocks, r.micros, r.compressed,
                Percent(r.compressed, r.blocks), raw, Percent(raw, r.blocks), 0,
                0.0);
  }
  return Status::OK();
}

}  // namespace sst_dump
}  // namespace strata
