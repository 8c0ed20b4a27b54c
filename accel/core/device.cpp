#include "accel/core/device.h"

#include "accel/runtime/errors.h"

namespace accel {

Device Device::parse(const std::string& spec) {
  if (spec == "cpu") return cpu();
  if (spec == "cuda" || spec == "gpu") return cuda(0);
  if (spec.rfind("cuda:", 0) == 0) {
    try {
      size_t used = 0;
      int idx = std::stoi(spec.substr(5), &used);
      if (used == spec.size() - 5 && idx >= 0) return cuda(idx);
    } catch (const std::exception&) {
    }
  }
  throw DeviceError("[device] unknown device '" + spec + "'; expected 'cpu', 'cuda' or 'cuda:N'");
}

std::string Device::str() const {
  if (type == Type::cpu) return "cpu";
  return "cuda:" + std::to_string(index);
}
}  // namespace accel
