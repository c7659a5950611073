// sst_dump's command line: RocksDB sst_dump's flag names and meanings, so
// that scripts written for one run the other.
//
// Flags are "--name=value", and for booleans "--name". An unknown flag or
// command, a malformed number or hex key is an InvalidArgument naming it;
// main() then prints the message and Usage() and exits non-zero (RocksDB
// exits 0 on an unknown command; strata refuses it).
//
// Thread safety: Flags is a plain struct, read-only once parsed.

#ifndef STRATA_TOOLS_SST_DUMP_SST_FLAGS_H_
#define STRATA_TOOLS_SST_DUMP_SST_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/options.h"
#include "strata/status.h"

namespace strata {
namespace sst_dump {

struct Flags {
  std::string file;  // a table file, or a directory of *.sst files
  // RocksDB's default command is check (its help says so, and a run with
  // no --command prints no entries).
  std::string command = "check";
  bool output_hex = false;
  bool input_key_hex = false;
  // --from / --to as user keys (decoded from hex with --input_key_hex).
  bool has_from = false;
  bool has_to = false;
  std::string from;
  std::string to;
  uint64_t read_num = 0;  // 0: no limit
  bool verify_checksum = false;
  bool show_properties = false;
  bool show_summary = false;
  // recompress: block size and the codecs to try (all built-in if empty).
  size_t block_size = 16384;
  std::vector<CompressionType> compression_types;
  bool help = false;
};

// The commands this sst_dump knows.
bool IsKnownCommand(const std::string& command);

// Parses argv[1..argc). The message of an error names the flag.
Status ParseFlags(int argc, const char* const* argv, Flags* flags);

// RocksDB's names of the codecs strata has: kNoCompression,
// kSnappyCompression, kZlibCompression.
const char* CompressionTypeFlagName(CompressionType type);

// Decodes "0x6162" or "6162" (either case) into bytes; false if malformed.
bool DecodeHexKey(const std::string& hex, std::string* out);

// The usage text, for --help and bad command lines.
std::string Usage();

}  // namespace sst_dump
}  // namespace strata

#endif  // STRATA_TOOLS_SST_DUMP_SST_FLAGS_H_
