#include "launch/launch_plan.h"

#include "base/shell_quote.h"

namespace rankmap::launch {

std::string ShellText(const LaunchCommand& command) {
  std::string text;
  for (const auto& [name, value] : command.env) {
    text += name + "=" + base::ShellQuote(value) + " ";
  }
  return text + base::ShellJoin(command.words);
}

}  // namespace rankmap::launch
