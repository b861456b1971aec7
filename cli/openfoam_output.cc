#include "cli/openfoam_output.h"

#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/foam_file.h"

namespace rankmap::cli {
namespace {

// The dataFile name: written unquoted as the labelList's `object` and quoted
// in decomposeParDict, so it keeps to characters neither reads specially.
absl::Status CheckDataFileName(const std::string& name,
                               const std::string& output) {
  const bool ok = !name.empty() && name[0] != '.' &&
                  name.find_first_not_of(
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                      "VWXYZ0123456789._-+") == std::string::npos;
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "--format openfoam: the file name ", base::Quote(name), " of ", output,
      " is not an OpenFOAM dataFile name (letters, digits, '.', '_', '-', "
      "'+'; not starting with '.')"));
}

}  // namespace

absl::Status WriteOpenFoamDecomposition(const topology::Tree& tree,
                                        const core::Mapping& mapping,
                                        const std::string& output,
                                        std::ostream& out,
                                        std::ostream& notes) {
  const std::filesystem::path path(output);
  const std::string name = output.empty() ? std::string("cellDecomposition")
                                          : path.filename().string();
  if (!output.empty()) RETURN_IF_ERROR(CheckDataFileName(name, output));
  const std::vector<int32_t> labels(mapping.begin(), mapping.end());
  const std::string text = graphs::FormatFoamLabelList(
      labels, name, "constant",
      absl::StrCat("rankmap: processor of each cell; nProcs:",
                   tree.num_leaves()));
  if (output.empty()) {
    out << text;
  } else {
    RETURN_IF_ERROR(base::WriteFile(output, text));
  }
  const bool in_constant =
      !output.empty() && path.parent_path().filename() == "constant";
  notes << "openfoam: system/decomposeParDict of the case:\n"
        << "  numberOfSubdomains " << tree.num_leaves() << ";\n"
        << "  method          manual;\n"
        << "  manualCoeffs    { dataFile \"" << name << "\"; }\n"
        << "openfoam: decomposePar reads the dataFile from the case's "
           "constant/ directory"
        << (in_constant ? "" : " (copy it there)")
        << "; processor p is rank p and runs on leaf p when ranks are placed "
           "in order (mpirun --map-by core --bind-to core)\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
