#include "tools/sst_dump/sst_flags.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace strata {
namespace sst_dump {

namespace {

const char* const kCommands[] = {"check",  "scan",       "raw",
                                 "verify", "recompress", "identify"};

const CompressionType kCodecs[] = {kNoCompression, kSnappyCompression,
                                   kZlibCompression};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A decimal number that fits in uint64_t and is at least min.
bool ParseNumber(const std::string& text, uint64_t min, uint64_t* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < min) return false;
  *out = v;
  return true;
}

Status ParseCompressionTypes(const std::string& list,
                             std::vector<CompressionType>* out) {
  out->clear();
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string name = list.substr(start, comma - start);
    bool found = false;
    for (CompressionType type : kCodecs) {
      if (name == CompressionTypeFlagName(type)) {
        out->push_back(type);
        found = true;
      }
    }
    if (!found) {
      return Status::InvalidArgument(
          "--compression_types: unknown or unsupported compression type '" +
              name + "'",
          "strata has kNoCompression, kSnappyCompression, kZlibCompression");
    }
    start = comma + 1;
  }
  return Status::OK();
}

// Sets *key from value, decoding hex when asked.
Status KeyFlag(const char* name, const std::string& value, bool hex,
               std::string* key) {
  if (!hex) {
    *key = value;
    return Status::OK();
  }
  if (!DecodeHexKey(value, key)) {
    return Status::InvalidArgument(std::string("--") + name +
                                   ": malformed hex key '" + value + "'");
  }
  return Status::OK();
}

}  // namespace

bool IsKnownCommand(const std::string& command) {
  for (const char* known : kCommands) {
    if (command == known) return true;
  }
  return false;
}

const char* CompressionTypeFlagName(CompressionType type) {
  switch (type) {
    case kNoCompression:
      return "kNoCompression";
    case kSnappyCompression:
      return "kSnappyCompression";
    case kZlibCompression:
      return "kZlibCompression";
  }
  return "kUnknownCompression";
}

bool DecodeHexKey(const std::string& hex, std::string* out) {
  size_t i = 0;
  if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) {
    i = 2;
  }
  if ((hex.size() - i) % 2 != 0) return false;
  out->clear();
  for (; i < hex.size(); i += 2) {
    const int hi = HexDigit(hex[i]);
    const int lo = HexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

Status ParseFlags(int argc, const char* const* argv, Flags* flags) {
  // Keys are decoded after all flags are seen: --input_key_hex may come
  // after --from.
  std::string from, to;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name =
        arg.substr(0, eq == std::string::npos ? arg.size() : eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : "";
    bool known = true;
    if (name == "--file" && has_value) {
      flags->file = value;
    } else if (name == "--command" && has_value) {
      flags->command = value;
    } else if (name == "--from" && has_value) {
      flags->has_from = true;
      from = value;
    } else if (name == "--to" && has_value) {
      flags->has_to = true;
      to = value;
    } else if (name == "--read_num" && has_value) {
      if (!ParseNumber(value, 0, &flags->read_num)) {
        return Status::InvalidArgument("--read_num: not a number: '" + value +
                                       "'");
      }
    } else if (name == "--set_block_size" && has_value) {
      uint64_t n = 0;
      if (!ParseNumber(value, 1, &n) || n > (uint64_t{1} << 30)) {
        return Status::InvalidArgument(
            "--set_block_size: not a block size (1 to 2^30): '" + value + "'");
      }
      flags->block_size = static_cast<size_t>(n);
    } else if (name == "--compression_types" && has_value) {
      Status s = ParseCompressionTypes(value, &flags->compression_types);
      if (!s.ok()) return s;
    } else if (!has_value && name == "--output_hex") {
      flags->output_hex = true;
    } else if (!has_value && name == "--input_key_hex") {
      flags->input_key_hex = true;
    } else if (!has_value && name == "--verify_checksum") {
      flags->verify_checksum = true;
    } else if (!has_value && name == "--show_properties") {
      flags->show_properties = true;
    } else if (!has_value && name == "--show_summary") {
      flags->show_summary = true;
    } else if (!has_value && (name == "--help" || name == "-h")) {
      flags->help = true;
    } else {
      known = false;
    }
    if (!known) {
      return Status::InvalidArgument("Unrecognized argument '" + arg + "'");
    }
  }
  if (flags->help) return Status::OK();
  if (flags->file.empty()) {
    return Status::InvalidArgument("--file is required");
  }
  if (!IsKnownCommand(flags->command)) {
    return Status::InvalidArgument("unknown command '" + flags->command + "'");
  }
  Status s;
  if (flags->has_from)
    s = KeyFlag("from", from, flags->input_key_hex, &flags->from);
  if (s.ok() && flags->has_to) {
    s = KeyFlag("to", to, flags->input_key_hex, &flags->to);
  }
  return s;
}

std::string Usage() {
  return R"(sst_dump --file=<data_dir_OR_sst_file> [--command=check|scan|raw|verify|recompress|identify]
    --file=<data_dir_OR_sst_file>
      Path to SST file or directory containing SST files (*.sst, in name order)

    --command=check|scan|raw|verify|recompress|identify
        check: Iterate over entries in files, verifying checksums, and report their count or the first error (default command)
        scan: Iterate over entries in files and print them to screen
        raw: Dump all the table contents to <file_name>_dump.txt
        verify: Iterate all the blocks in files verifying checksum to detect possible corruption but don't print anything except if a corruption is encountered
        recompress: reports the SST file size if recompressed with different
                    compression types
        identify: Reports a file is a valid SST file or lists all valid SST files under a directory

    --output_hex
      Can be combined with scan command to print the keys and values in Hex

    --from=<user_key>
      Key to start reading from when executing check|scan

    --to=<user_key>
      Key to stop reading at when executing check|scan

    --read_num=<num>
      Maximum number of entries to read when executing check|scan

    --verify_checksum
      Verify file checksum when executing check|scan

    --input_key_hex
      Can be combined with --from and --to to indicate that these values are encoded in Hex

    --show_properties
      Print table properties after iterating over the file when executing
      check|scan|raw|identify

    --show_summary
      Print the number of files and the sizes of their data, index and filter blocks

    --set_block_size=<block_size>
      Can be combined with --command=recompress to set the block size that will
      be used when trying different compression algorithms

    --compression_types=<comma-separated list of CompressionType members, e.g.,
      kSnappyCompression>
      Can be combined with --command=recompress to run recompression for this
      list of compression types
      Supported compression types: kNoCompression, kSnappyCompression, kZlibCompression
)";
}

}  // namespace sst_dump
}  // namespace strata
