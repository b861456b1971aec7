#include "cli/pictures/mini_xml.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace rankmap::cli::pictures {
namespace {

std::string Decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const size_t semi = s.find(';', i);
    const std::string_view e = s.substr(i + 1, semi - i - 1);
    if (e == "amp")
      out += '&';
    else if (e == "lt")
      out += '<';
    else if (e == "gt")
      out += '>';
    else if (e == "quot")
      out += '"';
    else if (e == "apos")
      out += '\'';
    i = semi;
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  absl::StatusOr<XmlElement> Document() {
    SkipMisc();
    XmlElement root;
    if (auto s = Element(root); !s.ok()) return s;
    SkipMisc();
    if (i_ != t_.size()) return Error("content after the root element");
    return root;
  }

 private:
  absl::Status Error(const std::string& what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("xml: ", what, " at offset ", i_));
  }

  void SkipSpace() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_])))
      ++i_;
  }

  // Declarations, DOCTYPE, comments and blanks between elements.
  void SkipMisc() {
    while (true) {
      SkipSpace();
      if (t_.substr(i_, 4) == "<!--") {
        const size_t e = t_.find("-->", i_);
        i_ = e == std::string_view::npos ? t_.size() : e + 3;
      } else if (t_.substr(i_, 2) == "<?" || t_.substr(i_, 2) == "<!") {
        const size_t e = t_.find('>', i_);
        i_ = e == std::string_view::npos ? t_.size() : e + 1;
      } else {
        return;
      }
    }
  }

  absl::Status Element(XmlElement& el) {
    if (i_ >= t_.size() || t_[i_] != '<') return Error("expected '<'");
    ++i_;
    const size_t start = i_;
    while (i_ < t_.size() &&
           !std::isspace(static_cast<unsigned char>(t_[i_])) && t_[i_] != '>' &&
           t_[i_] != '/')
      ++i_;
    el.name = std::string(t_.substr(start, i_ - start));
    if (el.name.empty()) return Error("empty tag name");
    while (true) {
      SkipSpace();
      if (i_ >= t_.size()) return Error("unclosed tag");
      if (t_[i_] == '/') {
        if (t_.substr(i_, 2) != "/>") return Error("expected '/>'");
        i_ += 2;
        return absl::OkStatus();
      }
      if (t_[i_] == '>') {
        ++i_;
        break;
      }
      const size_t k = i_;
      while (i_ < t_.size() && t_[i_] != '=' &&
             !std::isspace(static_cast<unsigned char>(t_[i_])))
        ++i_;
      const std::string key(t_.substr(k, i_ - k));
      if (i_ >= t_.size() || t_[i_] != '=' || i_ + 1 >= t_.size() ||
          t_[i_ + 1] != '"') {
        return Error(
            absl::StrCat("attribute '", key, "' without a quoted value"));
      }
      i_ += 2;
      const size_t end = t_.find('"', i_);
      if (end == std::string_view::npos) return Error("unterminated value");
      el.attributes[key] = Decode(t_.substr(i_, end - i_));
      i_ = end + 1;
    }
    // Content.
    while (true) {
      const size_t lt = t_.find('<', i_);
      if (lt == std::string_view::npos)
        return Error("unclosed element " + el.name);
      el.text += Decode(t_.substr(i_, lt - i_));
      i_ = lt;
      if (t_.substr(i_, 4) == "<!--") {
        SkipMisc();
        continue;
      }
      if (t_.substr(i_, 2) == "</") {
        const size_t gt = t_.find('>', i_);
        if (gt == std::string_view::npos) return Error("unclosed end tag");
        if (t_.substr(i_ + 2, gt - i_ - 2) != el.name)
          return Error(absl::StrCat("</",
                                    std::string(t_.substr(i_ + 2, gt - i_ - 2)),
                                    "> closes <", el.name, ">"));
        i_ = gt + 1;
        return absl::OkStatus();
      }
      el.children.emplace_back();
      if (auto s = Element(el.children.back()); !s.ok()) return s;
    }
  }

  std::string_view t_;
  size_t i_ = 0;
};

void Collect(const XmlElement& e, std::string_view name, std::string_view cls,
             std::vector<const XmlElement*>& out) {
  if (e.name == name) {
    bool match = cls.empty();
    if (!match) {
      const std::vector<std::string> words =
          absl::StrSplit(e.Attr("class"), ' ');
      for (const std::string& w : words) {
        if (w == cls) match = true;
      }
    }
    if (match) out.push_back(&e);
  }
  for (const XmlElement& c : e.children) Collect(c, name, cls, out);
}

}  // namespace

std::string XmlElement::Attr(const std::string& key) const {
  auto it = attributes.find(key);
  return it == attributes.end() ? "" : it->second;
}

double XmlElement::Number(const std::string& key) const {
  return std::strtod(Attr(key).c_str(), nullptr);
}

std::string XmlElement::AllText() const {
  std::string out = text;
  for (const XmlElement& c : children) out += c.AllText();
  return out;
}

std::vector<const XmlElement*> XmlElement::FindAll(std::string_view name,
                                                   std::string_view cls) const {
  std::vector<const XmlElement*> out;
  Collect(*this, name, cls, out);
  return out;
}

absl::StatusOr<XmlElement> ParseXml(std::string_view text) {
  return Parser(text).Document();
}

}  // namespace rankmap::cli::pictures
