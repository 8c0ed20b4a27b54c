// Where an array lives. Every array has one; ops never move data between devices silently.
#pragma once
#include <string>

namespace accel {

struct Device {
  enum class Type : unsigned char { cpu, cuda };
  Type type = Type::cpu;
  int index = 0;

  static Device cpu() { return {Type::cpu, 0}; }
  static Device cuda(int index = 0) { return {Type::cuda, index}; }
  // "cpu", "cuda", "cuda:1"; throws DeviceError on anything else.
  static Device parse(const std::string& spec);

  bool is_cpu() const { return type == Type::cpu; }
  bool is_cuda() const { return type == Type::cuda; }
  std::string str() const;
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

// The device used when none is given: ACCEL_DEVICE, else cuda if usable, else cpu.
Device default_device();

}  // namespace accel
