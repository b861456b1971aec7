// A command's flags, declared once: each row of a FlagTable names a flag
// (FlagSpec: name, default, help, an old name still accepted) and the field of
// the command struct it fills. The parser, the check that a flag belongs to
// the command and the `--help` text all come from the table, so they cannot
// disagree.
//
//   constexpr FlagSpec<uint64_t> kSeed{"seed", "1", "random seed"};
//   constexpr FlagSpec<bool> kQuiet{"quiet", "false", "no progress line"};
//   FlagTable<DemoCommand> table;
//   table.Add(kSeed, &DemoCommand::seed).Add(kQuiet, &DemoCommand::quiet);
//   DemoCommand cmd;
//   RETURN_IF_ERROR(table.SetDefaults(cmd));
//   ASSIGN_OR_RETURN(CommandLine line, table.Parse("demo", args, cmd));
//   if (line.help) std::cout << FlagHelp(table.flags());
//
// The spellings: `--name value`, `--name=value`, dashes or underscores
// (`--slots-per-leaf`, `--slots_per_leaf`), a bare `--name` and `--noname`
// for booleans, `--help` or `-h`. Values are read by absl's flag marshalling
// (absl/flags/marshalling.h): the same numbers and booleans absl flags take.
// A field is a data member pointer (&MapCommand::seed), a member of a member
// (&MapCommand::inputs, &Inputs::topology), an accessor returning a
// reference, or a setter taking the parsed value, for fields whose value is
// derived ([](MapCommand& c, int32_t t) { c.threads = t == 0 ? 8 : t; }).
//
// Numbers are checked by that one parser for every command: NaN and
// infinities are refused, and so is a value outside the flag's FlagRange
// ("advise: --iterations: '0' is out of range: expected in [1, 1000]").
//
// Every error is InvalidArgument, one line, and names the command and the
// flag, spelled with dashes: "map: unknown flag --mapping (try rankmap map
// --help)", "map: flag --comm needs a value", "map: --seed: Illegal value
// 'abc' specified for flag 'seed'".
#ifndef RANKMAP_CLI_FLAG_TABLE_H_
#define RANKMAP_CLI_FLAG_TABLE_H_

#include <cmath>
#include <cstddef>
#include <limits>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/flags/marshalling.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace rankmap::cli {

// The values a numeric flag takes: [min, max], or [min, max) with max_open.
// NaN and infinities are never taken.
struct FlagRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool max_open = false;
};

// A flag as the user sees it, whatever command reads it. `T` is the type its
// text is parsed into (bool, int32_t, int64_t, uint64_t, double,
// std::string). The strings are not owned: literals, or text that outlives
// every table holding the spec.
template <typename T>
struct FlagSpec {
  std::string_view name;  // canonical spelling, with underscores
  // Parsed into the field before the command line is read; shown by --help
  // unless empty, a boolean's, or the help text says its own default.
  std::string_view default_text;
  std::string_view help;
  std::string_view alias = {};  // an old name still accepted, or empty
  FlagRange range = {};         // numbers only
};

// What the scanner and --help know of a flag, its type aside.
struct FlagInfo {
  std::string_view name;
  std::string_view default_text;
  std::string_view help;
  std::string_view alias;
  bool is_bool = false;
};

// What the command line held besides flag values.
struct CommandLine {
  bool help = false;  // --help or -h came before any error: print, do nothing
  std::vector<std::string> program;  // after `--`, when the command takes one
  std::set<std::string> given;       // canonical names of the flags set
};

// "Illegal value 'abc' specified for flag 'seed'" when `text` is not a T
// (absl's own wording, with its reason after "; " when it gives one).
template <typename T>
absl::Status ParseFlagValue(std::string_view name, std::string_view text,
                            T& value) {
  std::string reason;
  if (absl::ParseFlag(absl::string_view(text.data(), text.size()), &value,
                      &reason)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Illegal value '", std::string(text), "' specified for flag '",
      std::string(name), "'", reason.empty() ? "" : "; ", reason));
}

// OK when `value` (of a numeric flag) is finite and inside `range`; else
// "'nan' is not a finite number" or "'0' is out of range: expected in [1,
// 1000]" (`text` as the user wrote it).
absl::Status CheckFlagRange(std::string_view text, double value,
                            const FlagRange& range);

// Called with the index of a flag in the table and its value's text.
using FlagSetter =
    absl::FunctionRef<absl::Status(size_t index, std::string_view text)>;

// Walks `args` (the words after the command and its operand) in order against
// `flags`, calling `set` for every value. With `takes_program`, `--` ends the
// flags and the rest is the program. Stops at the first error or at --help.
absl::StatusOr<CommandLine> ScanFlags(std::string_view command,
                                      absl::Span<const FlagInfo> flags,
                                      absl::Span<const std::string> args,
                                      bool takes_program, FlagSetter set);

// The `flags:` part of --help: one line per flag, spelled with dashes, its
// help at column 21 (or after one space), then "(default: X)" as FlagSpec
// says.
std::string FlagHelp(absl::Span<const FlagInfo> flags);

template <typename Command>
class FlagTable {
 public:
  // Adds the flag `spec` filling `field` of the command (see the header
  // comment for the forms of `field`). Returns *this, to chain.
  template <typename T, typename Field>
  FlagTable& Add(const FlagSpec<T>& spec, Field field) {
    infos_.push_back({spec.name, spec.default_text, spec.help, spec.alias,
                      std::is_same_v<T, bool>});
    setters_.push_back([name = spec.name, range = spec.range, field](
                           Command& c, std::string_view text) -> absl::Status {
      T value{};
      if (absl::Status s = ParseFlagValue(name, text, value); !s.ok()) return s;
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        absl::Status s =
            CheckFlagRange(text, static_cast<double>(value), range);
        if (!s.ok()) return s;
      }
      if constexpr (std::is_invocable_v<Field, Command&, T>) {
        field(c, std::move(value));
      } else {
        std::invoke(field, c) = std::move(value);
      }
      return absl::OkStatus();
    });
    return *this;
  }

  // The field `field` of the command's part `part` (its Inputs, its Choice).
  template <typename T, typename Part>
  FlagTable& Add(const FlagSpec<T>& spec, Part Command::*part, T Part::*field) {
    return Add(spec,
               [part, field](Command& c) -> T& { return (c.*part).*field; });
  }

  absl::Span<const FlagInfo> flags() const { return infos_; }

  // Sets every field to its flag's default. Errors: a default that does not
  // parse (a defect of the table; commands_test parses them all).
  absl::Status SetDefaults(Command& command) const {
    for (size_t i = 0; i < setters_.size(); ++i) {
      if (absl::Status s = setters_[i](command, infos_[i].default_text);
          !s.ok()) {
        return absl::InternalError(absl::StrCat("the default of --",
                                                std::string(infos_[i].name),
                                                ": ", s.message()));
      }
    }
    return absl::OkStatus();
  }

  // Sets the fields of the flags `args` gives (see ScanFlags); the others keep
  // their values.
  absl::StatusOr<CommandLine> Parse(std::string_view command_name,
                                    absl::Span<const std::string> args,
                                    Command& command,
                                    bool takes_program = false) const {
    return ScanFlags(command_name, infos_, args, takes_program,
                     [&](size_t i, std::string_view text) {
                       return setters_[i](command, text);
                     });
  }

 private:
  std::vector<FlagInfo> infos_;
  std::vector<std::function<absl::Status(Command&, std::string_view)>> setters_;
};

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_FLAG_TABLE_H_
