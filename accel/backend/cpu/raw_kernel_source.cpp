#include "accel/backend/cpu/raw_kernel_source.h"

#include <algorithm>
#include <regex>

#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

int line_of(const std::string& text, size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

struct Unsupported {
  const char* pattern;
  const char* what;
};
// What the CPU cannot run, and why the user should hear it before a compiler error.
constexpr Unsupported kUnsupported[] = {
    {R"(\b(asm|__asm__|__asm)\b\s*(volatile\b|__volatile__\b)?\s*\()",
     "inline PTX (asm) cannot run on the CPU; write the operation in CUDA C++ (the intrinsics "
     "such as __popc, __shfl_sync and atomicAdd are available)"},
    {R"(\b(tex1Dfetch|tex1D|tex2D|tex3D|tex1DLayered|tex2DLayered|texCubemap\w*|tex2Dgather|surf1Dread|surf1Dwrite|surf2Dread|surf2Dwrite|surf3Dread|surf3Dwrite)\b\s*(<[^>]*>)?\s*\()",
     "textures and surfaces cannot be used on the CPU; pass the data as an array"},
    {R"(\b(cudaTextureObject_t|cudaSurfaceObject_t)\b|\btexture\s*<)",
     "textures and surfaces cannot be used on the CPU; pass the data as an array"},
    {R"(\bthis_grid\s*\(|\bgrid_group\b|\bcudaLaunchCooperativeKernel\b|\bthis_multi_grid\s*\()",
     "grid-wide cooperative synchronisation cannot run on the CPU (blocks run in any order); "
     "split the kernel into two launches"},
    {R"(^[ \t]*#[ \t]*include[ \t]*[<"]cooperative_groups|\bcooperative_groups\b)",
     "cooperative_groups is not available on the CPU; use __syncthreads and the __shfl_*_sync "
     "warp functions"},
    {R"(<<<)", "a kernel launching kernels (dynamic parallelism) cannot run on the CPU"},
};

// Includes whose content the prelude provides (or that only NVRTC has).
const std::regex kProvidedInclude(
    R"(^[ \t]*#[ \t]*include[ \t]*[<"](cuda_fp16\.h|cuda_runtime\.h|cuda_runtime_api\.h|cuda\.h|device_launch_parameters\.h|device_functions\.h|sm_\d+_intrinsics\.h|math_constants\.h|cassert|assert\.h)[>"][^\n]*)",
    std::regex::multiline);
const std::regex kBarrierNames(
    R"(\b(__syncthreads\w*|__syncwarp|__shfl\w*_sync|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|__match_any_sync|__reduce_\w+_sync)\b)");
const std::regex kExternShared(R"(\bextern\s+__shared__\s+([^;\[\]]*?)\s*\b(\w+)\s*\[\s*\]\s*;)");
const std::regex kAlign(R"(__align__\s*\(\s*\d+\s*\))");
// Group 1: the __launch_bounds__ arguments (parentheses nested once), group 2: the name.
const std::regex kGlobalFunction(
    R"(\b__global__\s+void\s+(?:__launch_bounds__\s*\(((?:[^()]|\([^()]*\))*)\)\s*)?(\w+)\s*\()");
const std::regex kPointerParameter(
    R"(^(\s*)([^*]*?)\s*\*\s*(?:__restrict__|__restrict|restrict)?\s*(\w+)(\s*)$)");

// Whether `pos` lies in a function body: inside a brace that does not open a namespace, an
// extern "C" block, a class or an enum (or inside a block within such a body).
bool inside_function(const std::string& scan, size_t pos) {
  static const std::regex scope(R"(\b(namespace|struct|class|union|enum)\b|\bextern\s*"\s*"\s*$)");
  std::vector<bool> in_function;  // one entry per open brace
  for (size_t i = 0; i < pos; ++i) {
    if (scan[i] == '{') {
      const bool outer = in_function.empty() || !in_function.back();
      size_t start = i == 0 ? std::string::npos : scan.find_last_of(";{}", i - 1);
      start = start == std::string::npos ? 0 : start + 1;
      in_function.push_back(!outer || !std::regex_search(scan.substr(start, i - start), scope));
    } else if (scan[i] == '}' && !in_function.empty()) {
      in_function.pop_back();
    }
  }
  return !in_function.empty() && in_function.back();
}

// Whether `pos` is outside every brace but those of `extern "C" { ... }` blocks.
bool at_global_scope(const std::string& scan, size_t pos) {
  static const std::regex linkage(R"(\bextern\s*"\s*"\s*$)");
  std::vector<bool> linkage_block;  // one entry per open brace
  for (size_t i = 0; i < pos; ++i) {
    if (scan[i] == '{') {
      size_t start = i == 0 ? std::string::npos : scan.find_last_of(";{}", i - 1);
      start = start == std::string::npos ? 0 : start + 1;
      linkage_block.push_back(std::regex_search(scan.substr(start, i - start), linkage));
    } else if (scan[i] == '}' && !linkage_block.empty()) {
      linkage_block.pop_back();
    }
  }
  return std::all_of(linkage_block.begin(), linkage_block.end(), [](bool b) { return b; });
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

std::string checked_kernel_parameters(const std::string& source) {
  const std::string scan = blank_comments_and_strings(source);
  std::string out = source;
  std::vector<std::pair<size_t, size_t>> lists;  // the parameter lists, [begin, end)
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kGlobalFunction);
       it != std::sregex_iterator(); ++it) {
    const size_t open = static_cast<size_t>(it->position(0) + it->length(0));  // after '('
    int depth = 1;
    size_t close = open;
    while (close < scan.size() && depth > 0) {
      depth += scan[close] == '(' ? 1 : scan[close] == ')' ? -1 : 0;
      ++close;
    }
    if (depth == 0) lists.emplace_back(open, close - 1);
  }
  for (auto l = lists.rbegin(); l != lists.rend(); ++l) {
    std::string params;
    size_t start = l->first;
    int depth = 0;
    for (size_t i = l->first; i <= l->second; ++i) {
      const char c = i < l->second ? scan[i] : ',';
      depth += (c == '(' || c == '<') ? 1 : (c == ')' || c == '>') ? -1 : 0;
      if (c != ',' || depth > 0) continue;
      const std::string param = source.substr(start, i - start);
      std::smatch m;
      if (std::regex_match(param, m, kPointerParameter))
        params += m[1].str() + "::accel_simt::Checked<" + m[2].str() + "> " + m[3].str() + m[4].str();
      else
        params += param;
      if (i < l->second) params += ',';
      start = i + 1;
    }
    out.replace(l->first, l->second - l->first, params);
  }
  return out;
}

PreparedSource prepare_cuda_source(const std::string& source, const std::string& program_name) {
  const std::string scan = blank_comments_and_strings(source);
  // Compiled once: building these regexes cost more than a disk-cache hit.
  static const std::vector<std::regex> unsupported = [] {
    std::vector<std::regex> r;
    for (const Unsupported& u : kUnsupported) r.emplace_back(u.pattern, std::regex::multiline);
    return r;
  }();
  for (size_t k = 0; k < unsupported.size(); ++k) {
    const Unsupported& u = kUnsupported[k];
    std::smatch m;
    if (std::regex_search(scan, m, unsupported[k]))
      throw CompileError("[RawKernel " + program_name + ":" +
                         std::to_string(line_of(scan, static_cast<size_t>(m.position(0)))) + "] " +
                         u.what + " (found '" + m.str(0) + "')");
  }

  PreparedSource out;
  out.fibers = std::regex_search(scan, kBarrierNames);
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kGlobalFunction);
       it != std::sregex_iterator(); ++it) {
    // A template kernel (`template <...> __global__`) needs a name expression.
    size_t p = static_cast<size_t>(it->position(0));
    while (p > 0 && std::isspace(static_cast<unsigned char>(scan[p - 1]))) --p;
    if (p > 0 && scan[p - 1] == '>') continue;
    const std::string name = (*it)[2].str();
    if (std::find(out.kernels.begin(), out.kernels.end(), name) == out.kernels.end())
      out.kernels.push_back(name);
    if ((*it)[1].matched && at_global_scope(scan, p)) out.launch_bounds[name] = (*it)[1].str();
  }

  // Edits from the end backwards, so earlier positions stay valid; each keeps the line count.
  struct Edit {
    size_t pos, len;
    std::string text;
  };
  std::vector<Edit> edits;
  // On the source itself: the blanked copy has lost the names of quoted includes.
  for (auto it = std::sregex_iterator(source.begin(), source.end(), kProvidedInclude);
       it != std::sregex_iterator(); ++it)
    edits.push_back({static_cast<size_t>(it->position(0)), static_cast<size_t>(it->length(0)), ""});
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kExternShared);
       it != std::sregex_iterator(); ++it) {
    const size_t pos = static_cast<size_t>(it->position(0));
    static const std::regex space(R"(\s+)");
    std::string type = std::regex_replace(
        std::regex_replace(source.substr(static_cast<size_t>(it->position(1)),
                                         static_cast<size_t>(it->length(1))),
                           kAlign, ""),
        space, " ");
    type.erase(0, type.find_first_not_of(' '));
    type.erase(type.find_last_not_of(' ') + 1);
    const std::string name = (*it)[2].str();
    const std::string original = source.substr(pos, static_cast<size_t>(it->length(0)));
    const std::string newlines(static_cast<size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
    std::string text =
        inside_function(scan, pos)
            ? type + "* " + name + " = reinterpret_cast<" + type + "*>(::accel_simt::dynamic_shared());"
            : "static ::accel_simt::DynamicShared<" + type + "> " + name + ";";
    edits.push_back({pos, static_cast<size_t>(it->length(0)), text + newlines});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.pos > b.pos; });
  out.text = source;
  for (const Edit& e : edits) out.text.replace(e.pos, e.len, e.text);
  return out;
}

}  // namespace accel::cpu
