// The one place accel reads its configuration: the ACCEL_* environment variables listed in
// config.def, each kind parsed one way. A malformed value raises ValueError naming the variable
// and what it takes, instead of being read differently (or silently ignored) by each caller.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accel::config {

enum class Var {
#define ACCEL_CONFIG(name, kind, meaning) name,
#include "accel/runtime/config.def"
#undef ACCEL_CONFIG
};

// The value when set and not empty.
std::optional<std::string> text(Var v);
// On: 1, true, yes, on; off: 0, false, no, off (any case). Unset or empty: `fallback`.
bool flag(Var v, bool fallback);
// A non-negative decimal integer. Unset or empty: nullopt.
std::optional<uint64_t> number(Var v);

struct Entry {
  const char* name;
  const char* kind;
  const char* meaning;
  std::optional<std::string> value;  // as set in the environment
  std::optional<std::string> problem;  // why the value is malformed (the ValueError's text)
};
// Every variable with its meaning and current value (for `python -m accel info`).
std::vector<Entry> entries();

}  // namespace accel::config
