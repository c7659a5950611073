// Value spellings of the OPTIONS file and option strings, as RocksDB 7.8
// writes them: booleans "true"/"false", integers in decimal, doubles with
// six decimals, enums by their C++ names (kSnappyCompression,
// kPointInTimeRecovery). Each Parse returns false for text that is not a
// value of the type (overflow included) and leaves *value unchanged then.

#ifndef STRATA_DB_OPTION_VALUES_H_
#define STRATA_DB_OPTION_VALUES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/options.h"

namespace strata {

bool ParseOptionValue(const std::string& text, bool* value);
bool ParseOptionValue(const std::string& text, int* value);
bool ParseOptionValue(const std::string& text, unsigned long* value);
bool ParseOptionValue(const std::string& text, unsigned long long* value);
bool ParseOptionValue(const std::string& text, double* value);
bool ParseOptionValue(const std::string& text, CompressionType* value);
bool ParseOptionValue(const std::string& text, WALRecoveryMode* value);
bool ParseOptionValue(const std::string& text, CompactionStyle* value);
// "kNoCompression:kSnappyCompression" (RocksDB's compression_per_level).
bool ParseOptionValue(const std::string& text,
                      std::vector<CompressionType>* value);

std::string PrintOptionValue(bool value);
std::string PrintOptionValue(int value);
std::string PrintOptionValue(unsigned long value);
std::string PrintOptionValue(unsigned long long value);
std::string PrintOptionValue(double value);
std::string PrintOptionValue(CompressionType value);
std::string PrintOptionValue(WALRecoveryMode value);
std::string PrintOptionValue(CompactionStyle value);
std::string PrintOptionValue(const std::vector<CompressionType>& value);

// The id of an object value: "name" itself, or X of "{id=X;...}" as
// RocksDB writes a configurable object; "" for "nullptr".
std::string OptionObjectId(const std::string& text);

}  // namespace strata

#endif  // STRATA_DB_OPTION_VALUES_H_
