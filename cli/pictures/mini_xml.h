// A small XML reader for tests of the pictures: elements, attributes, text
// and the five predefined entities; skips the XML declaration, DOCTYPE and
// comments. Enough for the SVG and XHTML-style HTML that cli/pictures writes,
// and strict about nesting, so a malformed file fails to parse.
//
//   ASSIGN_OR_RETURN(XmlElement svg, ParseXml(text));
//   std::vector<const XmlElement*> cells = svg.FindAll("rect", "cell");
#ifndef RANKMAP_CLI_PICTURES_MINI_XML_H_
#define RANKMAP_CLI_PICTURES_MINI_XML_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::cli::pictures {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  // the element's own text, entities decoded
  std::vector<XmlElement> children;

  // The attribute, or "" when absent.
  std::string Attr(const std::string& key) const;
  double Number(const std::string& key) const;
  // Text of this element, then of every element below it.
  std::string AllText() const;
  // Every element below (and including) this one named `name` whose class
  // attribute contains the word `cls` (any class when empty), in document
  // order.
  std::vector<const XmlElement*> FindAll(std::string_view name,
                                         std::string_view cls = "") const;
};

// Errors: unclosed or mismatched tags, unquoted attributes, several roots.
absl::StatusOr<XmlElement> ParseXml(std::string_view text);

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_MINI_XML_H_
