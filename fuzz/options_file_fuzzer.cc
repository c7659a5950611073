// The OPTIONS file parser (db/options_file_parser.cc) and the option
// tables behind it, on text from disk. Whatever parses must print back
// (SerializeOptionsFile) to text that parses to the same printing: the
// writer and the parser agree on every value they both take.
//
// Input: a settings byte (bit 0 ignore_unknown_options, bit 1
// input_strings_escaped), then the file's text.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "db/options_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  if (size == 0) return 0;
  ConfigOptions config;
  config.ignore_unknown_options = (data[0] & 1) != 0;
  config.input_strings_escaped = (data[0] & 2) != 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  OptionsFileContents parsed;
  if (!ParseOptionsFile(config, "fuzz", text, nullptr, &parsed).ok()) {
    return 0;
  }
  const std::string printed =
      SerializeOptionsFile(parsed.db_options, parsed.families);
  OptionsFileContents again;
  ConfigOptions strict;  // what strata writes, it reads without leniency
  Status s = ParseOptionsFile(strict, "printed", printed, nullptr, &again);
  if (!s.ok()) std::abort();
  if (SerializeOptionsFile(again.db_options, again.families) != printed) {
    std::abort();
  }
  return 0;
}
