#include "tools/ldb/command_line.h"

namespace strata {
namespace ldb {

const std::vector<std::string> kGlobalOptions = {
    "db=",
    "column_family=",
    "hex",
    "key_hex",
    "value_hex",
    "create_if_missing",
    // RocksDB writes it as a flag or as --try_load_options=false.
    "try_load_options[=]",
    "ignore_unknown_options",
};

bool CommandLine::Has(const std::string& name) const {
  return flags.count(name) != 0 || options.count(name) != 0;
}

std::string CommandLine::Value(const std::string& name,
                               const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

CommandLine ParseCommandLine(int argc, const char* const* argv) {
  CommandLine line;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      line.help = true;
    } else if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
      const size_t eq = arg.find('=');
      if (eq == std::string::npos) {
        line.flags.insert(arg.substr(2));
      } else {
        line.options[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
      }
    } else if (line.command.empty()) {
      line.command = arg;
    } else {
      line.params.push_back(arg);
    }
  }
  return line;
}

namespace {

enum class Form { kValue, kFlag, kEither };

// The form a spec accepts, and its bare name in *name.
Form ParseSpec(const std::string& spec, std::string* name) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos) {
    *name = spec;
    return Form::kFlag;
  }
  if (spec.compare(eq - 1, 3, "[=]") == 0) {
    *name = spec.substr(0, eq - 1);
    return Form::kEither;
  }
  *name = spec.substr(0, eq);
  return Form::kValue;
}

// True if name, given as an option (with_value) or a flag, fits a spec.
bool Accepted(const std::vector<std::string>& specs, const std::string& name,
              bool with_value) {
  for (const std::string& spec : specs) {
    std::string spec_name;
    const Form form = ParseSpec(spec, &spec_name);
    if (spec_name != name) continue;
    if (form == Form::kEither) return true;
    return with_value == (form == Form::kValue);
  }
  return false;
}

}  // namespace

std::string CheckNames(const CommandLine& line,
                       const std::vector<std::string>& accepted) {
  for (const auto& option : line.options) {
    if (!Accepted(kGlobalOptions, option.first, true) &&
        !Accepted(accepted, option.first, true)) {
      return "Invalid command-line option " + option.first;
    }
  }
  for (const std::string& flag : line.flags) {
    if (!Accepted(kGlobalOptions, flag, false) &&
        !Accepted(accepted, flag, false)) {
      return "Invalid command-line flag " + flag;
    }
  }
  return "";
}

}  // namespace ldb
}  // namespace strata
