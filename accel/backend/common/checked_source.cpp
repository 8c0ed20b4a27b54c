#include "accel/backend/common/checked_source.h"

#include <algorithm>
#include <regex>

namespace accel::plan {
namespace {

// The patterns are compiled on first use, not while the library loads: compiling a std::regex
// in a static initialiser crashed the import on the H200 machine when NumPy was imported first
// (a segfault in the bracket matcher's locale setup inside dlopen).
const std::regex& global_function_re() {
  static const std::regex r(R"(\b__global__\s+void\s+(?:__launch_bounds__\s*\(((?:[^()]|\([^()]*\))*)\)\s*)?(\w+)\s*\()");
  return r;
}
const std::regex& pointer_parameter_re() {
  static const std::regex r(
    R"(^(\s*)([^*]*?)\s*\*\s*(?:__restrict__|__restrict|restrict)?\s*(\w+)(\s*)$)");
  return r;
}

}  // namespace

std::string blank_comments_and_strings(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      size_t e = s.find('\n', i);
      e = e == std::string::npos ? s.size() : e;
      blank(i, e);
      i = e;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? s.size() : e + 2;
      blank(i, e);
      i = e;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i];
      size_t e = i + 1;
      while (e < s.size() && s[e] != q && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, s.size());
      blank(i + 1, e - 1);  // the quotes stay, so `extern "C"` still reads as a linkage
      i = e;
    } else {
      ++i;
    }
  }
  return out;
}

CheckedSource checked_kernel_parameters(const std::string& source) {
  CheckedSource result;
  const std::string scan = blank_comments_and_strings(source);
  std::string out = source;
  struct List {
    size_t begin, end;  // the parameter list, [begin, end)
    std::string kernel;
  };
  std::vector<List> lists;
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), global_function_re());
       it != std::sregex_iterator(); ++it) {
    const size_t open = static_cast<size_t>(it->position(0) + it->length(0));  // after '('
    int depth = 1;
    size_t close = open;
    while (close < scan.size() && depth > 0) {
      depth += scan[close] == '(' ? 1 : scan[close] == ')' ? -1 : 0;
      ++close;
    }
    if (depth == 0) lists.push_back({open, close - 1, (*it)[2].str()});
  }
  for (auto l = lists.rbegin(); l != lists.rend(); ++l) {  // from the end: positions stay valid
    std::string params;
    std::vector<int>& checked = result.checked_parameters[l->kernel];
    checked.clear();
    size_t start = l->begin;
    int depth = 0, number = 0;
    for (size_t i = l->begin; i <= l->end; ++i) {
      const char c = i < l->end ? scan[i] : ',';
      depth += (c == '(' || c == '<') ? 1 : (c == ')' || c == '>') ? -1 : 0;
      if (c != ',' || depth > 0) continue;
      const std::string param = source.substr(start, i - start);
      std::smatch m;
      if (std::regex_match(param, m, pointer_parameter_re())) {
        params += m[1].str() + "::accel_simt::Checked<" + m[2].str() + "> " + m[3].str() + m[4].str();
        checked.push_back(number);
      } else {
        params += param;
      }
      if (i < l->end) params += ',';
      start = i + 1;
      ++number;
    }
    out.replace(l->begin, l->end - l->begin, params);
  }
  result.text = std::move(out);
  return result;
}

}  // namespace accel::plan
