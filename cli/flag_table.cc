#include "cli/flag_table.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace rankmap::cli {

namespace {

// The canonical name of `key` (dashes already turned into underscores): a
// flag's name, or the name of the flag `key` is the old name of.
std::optional<size_t> FindFlag(absl::Span<const FlagInfo> flags,
                               std::string_view key) {
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i].name == key) return i;
  }
  for (size_t i = 0; i < flags.size(); ++i) {
    std::string alias(flags[i].alias);
    std::replace(alias.begin(), alias.end(), '-', '_');
    if (!alias.empty() && alias == key) return i;
  }
  return std::nullopt;
}

// `--noname` of a boolean flag `name`, or nullopt.
std::optional<size_t> FindNegation(absl::Span<const FlagInfo> flags,
                                   std::string_view key) {
  if (key.substr(0, 2) != "no") return std::nullopt;
  const std::optional<size_t> i = FindFlag(flags, key.substr(2));
  if (!i || !flags[*i].is_bool) return std::nullopt;
  return i;
}

absl::Status UnknownFlag(std::string_view command, std::string_view key) {
  const std::string name(command);
  return absl::InvalidArgumentError(
      absl::StrCat(name, ": unknown flag --", std::string(key),
                   " (try rankmap ", name, " --help)"));
}

}  // namespace

absl::StatusOr<CommandLine> ScanFlags(std::string_view command_name,
                                      absl::Span<const FlagInfo> flags,
                                      absl::Span<const std::string> args,
                                      bool takes_program, FlagSetter set) {
  const std::string command(command_name);
  CommandLine line;
  for (size_t a = 0; a < args.size(); ++a) {
    const std::string& arg = args[a];
    if (arg == "--" && takes_program) {
      line.program.assign(args.begin() + a + 1, args.end());
      break;
    }
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      return line;
    }
    if (arg.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(command, ": unexpected argument '", arg, "'"));
    }
    std::string key = arg.substr(2);
    std::optional<std::string> value;
    if (const size_t eq = key.find('='); eq != std::string::npos) {
      value = key.substr(eq + 1);
      key.resize(eq);
    }
    std::replace(key.begin(), key.end(), '-', '_');
    std::optional<size_t> i = FindFlag(flags, key);
    if (!i && !value) {
      if (const std::optional<size_t> negated = FindNegation(flags, key)) {
        i = negated;
        value = "false";
      }
    }
    if (!i) return UnknownFlag(command, key);
    const FlagInfo& flag = flags[*i];
    if (!value) {
      if (flag.is_bool) {
        value = "true";
      } else if (a + 1 < args.size()) {
        value = args[++a];
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            command, ": flag --", std::string(flag.name), " needs a value"));
      }
    }
    if (absl::Status s = set(*i, *value); !s.ok()) {
      std::string spelled(flag.name);
      std::replace(spelled.begin(), spelled.end(), '_', '-');
      return absl::InvalidArgumentError(
          absl::StrCat(command, ": --", spelled, ": ", s.message()));
    }
    line.given.insert(std::string(flag.name));
  }
  return line;
}

absl::Status CheckFlagRange(std::string_view text, double value,
                            const FlagRange& range) {
  const std::string shown(text.substr(0, 64));
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", shown, "' is not a finite number"));
  }
  if (value >= range.min &&
      (range.max_open ? value < range.max : value <= range.max)) {
    return absl::OkStatus();
  }
  std::string expected;
  if (!std::isfinite(range.max)) {
    expected = absl::StrCat(">= ", range.min);
  } else if (!std::isfinite(range.min)) {
    expected = absl::StrCat(range.max_open ? "< " : "<= ", range.max);
  } else {
    expected = absl::StrCat("in [", range.min, ", ", range.max,
                            range.max_open ? ")" : "]");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", shown, "' is out of range: expected ", expected));
}

std::string FlagHelp(absl::Span<const FlagInfo> flags) {
  std::string text;
  for (const FlagInfo& flag : flags) {
    std::string line = absl::StrCat("  --", std::string(flag.name));
    std::replace(line.begin(), line.end(), '_', '-');
    line.resize(std::max<size_t>(line.size() + 1, 20), ' ');
    line.append(flag.help);
    if (flag.help.find("default:") == std::string_view::npos &&
        !flag.default_text.empty() && !flag.is_bool) {
      absl::StrAppend(&line, " (default: ", std::string(flag.default_text),
                      ")");
    }
    absl::StrAppend(&text, line, "\n");
  }
  return text;
}

}  // namespace rankmap::cli
