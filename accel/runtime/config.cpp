#include "accel/runtime/config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>

#include "accel/runtime/errors.h"

namespace accel::config {
namespace {

struct Info {
  const char* name;
  const char* kind;
  const char* meaning;
};

constexpr Info kVars[] = {
#define ACCEL_CONFIG(name, kind, meaning) {#name, #kind, meaning},
#include "accel/runtime/config.def"
#undef ACCEL_CONFIG
};

const Info& info(Var v) { return kVars[static_cast<size_t>(v)]; }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

std::optional<std::string> text(Var v) {
  const char* value = std::getenv(info(v).name);
  if (!value || !*value) return std::nullopt;
  return std::string(value);
}

bool flag(Var v, bool fallback) {
  const auto value = text(v);
  if (!value) return fallback;
  const std::string s = lower(*value);
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  throw ValueError(std::string("[config] ") + info(v).name + "='" + *value +
                   "' is not on or off; use 1/true/yes/on or 0/false/no/off");
}

std::optional<uint64_t> number(Var v) {
  const auto value = text(v);
  if (!value) return std::nullopt;
  const bool digits = value->size() <= 19 &&
                      std::all_of(value->begin(), value->end(),
                                  [](unsigned char c) { return std::isdigit(c); });
  if (!digits)
    throw ValueError(std::string("[config] ") + info(v).name + "='" + *value +
                     "' is not a non-negative integer");
  return std::stoull(*value);
}

std::vector<Entry> entries() {
  std::vector<Entry> out;
  for (size_t k = 0; k < std::size(kVars); ++k) {
    const Var v = static_cast<Var>(k);
    Entry e{kVars[k].name, kVars[k].kind, kVars[k].meaning, text(v), std::nullopt};
    try {  // parsed as its readers will parse it, so `accel doctor` can say what is wrong
      if (std::string_view(e.kind) == "flag") flag(v, false);
      if (std::string_view(e.kind) == "number") number(v);
    } catch (const ValueError& err) {
      e.problem = err.what();
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace accel::config
