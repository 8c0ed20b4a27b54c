// What ptxas says about each kernel of a CUBIN (NVRTC with --ptxas-options=-v): registers,
// spills, stack (local memory) and static shared memory, and the occupancy the registers allow
// at a block size on sm_90. Used by tests/cpp/cuda_resources_test.cpp.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace ptxas {

struct Kernel {
  std::string name;  // as ptxas prints it (mangled for C++ names)
  int registers = 0;
  int stack_bytes = 0;  // local memory per thread
  int spill_stores = 0, spill_loads = 0;
  int shared_bytes = 0;  // static shared memory
};

// Parses the -v report: per entry function a "Compiling entry function 'X'" line, then
// "N bytes stack frame, N bytes spill stores, N bytes spill loads" and "Used N registers, ...".
inline std::vector<Kernel> parse(const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<Kernel> out;
  std::istringstream in(log);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, entry)) {
      out.push_back({m[1].str()});
    } else if (out.empty()) {
      continue;
    } else if (std::regex_search(line, m, frame)) {
      out.back().stack_bytes = std::stoi(m[1].str());
      out.back().spill_stores = std::stoi(m[2].str());
      out.back().spill_loads = std::stoi(m[3].str());
    } else if (std::regex_search(line, m, used)) {
      out.back().registers = std::stoi(m[1].str());
      if (std::regex_search(line, m, smem)) out.back().shared_bytes = std::stoi(m[1].str());
    }
  }
  return out;
}

// The share of an sm_90 multiprocessor's 64 warp slots that blocks of `threads` can fill when
// each thread uses `registers`: 65536 registers per multiprocessor, allocated per warp in units
// of 256, at most 32 blocks.
inline double register_occupancy_sm90(int registers, int threads) {
  const int warps_per_block = (threads + 31) / 32;
  const int per_warp = (std::max(registers, 1) * 32 + 255) / 256 * 256;
  const int warps_by_registers = 65536 / per_warp;
  const int blocks = std::min(32, warps_by_registers / warps_per_block);
  return std::min(1.0, blocks * warps_per_block / 64.0);
}

// The kernel's name without C++ mangling details: the (last, for a nested name) identifier
// after _Z, or the name itself (extern "C").
inline std::string base_name(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  size_t i = 2;
  const bool nested = i < name.size() && name[i] == 'N';
  if (nested) ++i;
  std::string last;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) {
    size_t length = 0;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])))
      length = length * 10 + static_cast<size_t>(name[i++] - '0');
    last = name.substr(i, length);
    i += length;
    if (!nested) break;
  }
  return last;
}

// Problems of one CUBIN's kernels, launched with blocks of `threads`: any spill, and register
// use that caps occupancy below one half, unless the source says why with a comment
// "low occupancy (<kernel base name>): <reason>".
inline std::vector<std::string> problems(const std::vector<Kernel>& kernels, int threads,
                                         const std::string& source) {
  std::vector<std::string> out;
  for (const Kernel& k : kernels) {
    if (k.spill_stores || k.spill_loads)
      out.push_back(k.name + " spills (" + std::to_string(k.spill_stores) + " bytes stored, " +
                    std::to_string(k.spill_loads) + " loaded; " + std::to_string(k.registers) +
                    " registers)");
    const double occupancy = register_occupancy_sm90(k.registers, threads);
    if (occupancy < 0.5 &&
        source.find("low occupancy (" + base_name(k.name) + "):") == std::string::npos)
      out.push_back(k.name + " uses " + std::to_string(k.registers) + " registers: at " +
                    std::to_string(threads) + " threads per block that allows " +
                    std::to_string(static_cast<int>(occupancy * 100)) +
                    "% occupancy on sm_90 (below 50%, and no comment says why)");
  }
  return out;
}

}  // namespace ptxas
