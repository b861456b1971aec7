// Escaping text for XML attribute values and character data.
//
//   out += "<host id=\"" + base::XmlEscape(name) + "\"/>";
#ifndef RANKMAP_BASE_XML_ESCAPE_H_
#define RANKMAP_BASE_XML_ESCAPE_H_

#include <string>
#include <string_view>

namespace rankmap::base {

// `text` with &, <, >, " and ' replaced by their entities. O(length).
std::string XmlEscape(std::string_view text);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_XML_ESCAPE_H_
