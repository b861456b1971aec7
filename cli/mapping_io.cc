#include "cli/mapping_io.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/version.h"
#include "sim/smpi_hostfile.h"

namespace rankmap::cli {

absl::StatusOr<MappingFormat> ParseMappingFormat(std::string_view name) {
  if (name == "plain") return MappingFormat::kPlain;
  if (name == "json") return MappingFormat::kJson;
  if (name == "smpi") return MappingFormat::kSmpi;
  return absl::InvalidArgumentError(absl::StrCat(
      "--format: unknown mapping format '", std::string(name),
      "' (expected plain, json, smpi, openfoam, or a launch format: rankfile, "
      "ompi5, slurm, hydra, hwloc)"));
}

absl::StatusOr<core::Mapping> ParseMapping(std::string_view text,
                                           std::string_view name) {
  core::Mapping m;
  int64_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view()
                                         : text.substr(eol + 1);
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
      line.remove_prefix(1);
    while (!line.empty() &&
           (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    int64_t leaf = 0;
    auto [ptr, ec] =
        std::from_chars(line.data(), line.data() + line.size(), leaf);
    if (ec != std::errc() || ptr != line.data() + line.size() || leaf < 0 ||
        leaf > INT32_MAX) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(name), ":", line_no, ": expected a leaf index, found '",
          std::string(line), "'"));
    }
    m.push_back(static_cast<core::LeafId>(leaf));
  }
  return m;
}

absl::StatusOr<core::Mapping> ReadMappingFile(const std::string& path) {
  absl::StatusOr<std::string> text = base::ReadFile(path, "mapping file");
  if (!text.ok()) return text.status();
  return ParseMapping(*text, path);
}

namespace {

// A JSON string literal; device names come from XML files anyone can write.
std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += absl::StrFormat("\\u%04x", c);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

absl::StatusOr<std::string> FormatMapping(
    const topology::Tree& tree, const core::Mapping& mapping,
    MappingFormat format, std::string_view algorithm, double j,
    const std::vector<std::string>& device) {
  std::string out;
  switch (format) {
    case MappingFormat::kPlain:
      for (core::LeafId l : mapping) absl::StrAppend(&out, l, "\n");
      break;
    case MappingFormat::kJson:
      // JSON has no inf or nan: a J that is not finite (Map and Cost refuse
      // inputs where it could be) is written as null.
      absl::StrAppend(&out, "{\"algorithm\": \"", std::string(algorithm),
                      "\", ",
                      std::isfinite(j) ? absl::StrFormat("\"j\": %.17g", j)
                                       : std::string("\"j\": null"),
                      ", \"processes\": ", mapping.size(), ", \"mapping\": [");
      for (size_t p = 0; p < mapping.size(); ++p) {
        absl::StrAppend(&out, p ? ", " : "", mapping[p]);
      }
      absl::StrAppend(&out, "]");
      if (!device.empty()) {
        absl::StrAppend(&out, ", \"device\": [");
        for (size_t p = 0; p < device.size(); ++p) {
          absl::StrAppend(
              &out, p ? ", " : "",
              device[p].empty() ? std::string("null") : JsonString(device[p]));
        }
        absl::StrAppend(&out, "]");
      }
      absl::StrAppend(
          &out, ", \"version\": ", JsonString(base::VersionString()), "}\n");
      break;
    case MappingFormat::kSmpi:
      return sim::SmpiHostfile(tree, mapping);
  }
  return out;
}

}  // namespace rankmap::cli
