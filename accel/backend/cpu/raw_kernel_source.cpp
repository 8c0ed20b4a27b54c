#include "accel/backend/cpu/raw_kernel_source.h"

#include <algorithm>
#include <regex>

#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

int line_of(const std::string& text, size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// libstdc++'s regex search costs tens of nanoseconds per character and pattern: run over the
// whole source, the patterns below made preparing a 3 KB source take about 2 ms, most of a
// disk-cache hit. Each pattern is therefore run only where a word it must contain appears.
bool contains_any(const std::string& text, const char* const* words) {
  for (; *words; ++words)
    if (text.find(*words) != std::string::npos) return true;
  return false;
}

// Calls fn(match, position) for each match of `re` that starts where `word` occurs in `text`
// (so the pattern must begin with that word, or a word boundary before it). Positions in the
// match are relative to `position`.
template <class Fn>
void for_each_match_at(const std::string& text, const char* word, const std::regex& re, Fn fn) {
  using namespace std::regex_constants;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    std::smatch m;
    if (std::regex_search(text.begin() + static_cast<long>(at), text.end(), m, re,
                          at == 0 ? match_continuous : match_continuous | match_prev_avail))
      fn(m, at);
  }
}

struct Unsupported {
  const char* pattern;
  const char* words[5];  // a match contains one of these (null-terminated)
  const char* what;
};
// What the CPU cannot run, and why the user should hear it before a compiler error.
constexpr Unsupported kUnsupported[] = {
    {R"(\b(asm|__asm__|__asm)\b\s*(volatile\b|__volatile__\b)?\s*\()",
     {"asm"},
     "inline PTX (asm) cannot run on the CPU; write the operation in CUDA C++ (the intrinsics "
     "such as __popc, __shfl_sync and atomicAdd are available)"},
    {R"(\b(tex1Dfetch|tex1D|tex2D|tex3D|tex1DLayered|tex2DLayered|texCubemap\w*|tex2Dgather|surf1Dread|surf1Dwrite|surf2Dread|surf2Dwrite|surf3Dread|surf3Dwrite)\b\s*(<[^>]*>)?\s*\()",
     {"tex", "surf"},
     "textures and surfaces cannot be used on the CPU; pass the data as an array"},
    {R"(\b(cudaTextureObject_t|cudaSurfaceObject_t)\b|\btexture\s*<)",
     {"cudaTextureObject_t", "cudaSurfaceObject_t", "texture"},
     "textures and surfaces cannot be used on the CPU; pass the data as an array"},
    {R"(\bthis_grid\s*\(|\bgrid_group\b|\bcudaLaunchCooperativeKernel\b|\bthis_multi_grid\s*\()",
     {"this_grid", "grid_group", "cudaLaunchCooperativeKernel", "this_multi_grid"},
     "grid-wide cooperative synchronisation cannot run on the CPU (blocks run in any order); "
     "split the kernel into two launches"},
    {R"(^[ \t]*#[ \t]*include[ \t]*[<"]cooperative_groups|\bcooperative_groups\b)",
     {"cooperative_groups"},
     "cooperative_groups is not available on the CPU; use __syncthreads and the __shfl_*_sync "
     "warp functions"},
    {R"(<<<)", {"<<<"}, "a kernel launching kernels (dynamic parallelism) cannot run on the CPU"},
};

// The patterns are compiled on first use, not while the library loads (see checked_source.cpp).
// Includes whose content the prelude provides (or that only NVRTC has).
const std::regex& provided_include_re() {
  static const std::regex r(
    R"(^[ \t]*#[ \t]*include[ \t]*[<"](cuda_fp16\.h|cuda_runtime\.h|cuda_runtime_api\.h|cuda\.h|device_launch_parameters\.h|device_functions\.h|sm_\d+_intrinsics\.h|math_constants\.h|cassert|assert\.h)[>"][^\n]*)",
    std::regex::multiline);
  return r;
}
const std::regex& barrier_names_re() {
  static const std::regex r(
    R"(\b(__syncthreads\w*|__syncwarp|__shfl\w*_sync|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|__match_any_sync|__reduce_\w+_sync)\b)");
  return r;
}
const std::regex& extern_shared_re() {
  static const std::regex r(R"(\bextern\s+__shared__\s+([^;\[\]]*?)\s*\b(\w+)\s*\[\s*\]\s*;)");
  return r;
}
const std::regex& align_re() {
  static const std::regex r(R"(__align__\s*\(\s*\d+\s*\))");
  return r;
}
// Group 1: the __launch_bounds__ arguments (parentheses nested once), group 2: the name.
const std::regex& global_function_re() {
  static const std::regex r(
    R"(\b__global__\s+void\s+(?:__launch_bounds__\s*\(((?:[^()]|\([^()]*\))*)\)\s*)?(\w+)\s*\()");
  return r;
}

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

std::string instrument_shared_memory(const std::string& text) {
  const std::string scan = blank_comments_and_strings(text);
  static const std::regex shared(R"(\b__shared__\b)");
  static const std::regex declarator(R"(^\s*(\w+)\s*((?:\[[^\]]+\]\s*)+)$)");
  static const std::regex first(R"(^([^\[]*?)\b(\w+)\s*((?:\[[^\]]+\]\s*)+)$)");
  // What prepare_cuda_source made of `extern __shared__ T name[];`.
  static const std::regex dynamic_local(
      R"(([^;{}\n]*?)\*\s*(\w+)\s*=\s*reinterpret_cast<[^;]*?\*>\(::accel_simt::dynamic_shared\(\)\);)");
  static const std::regex dynamic_global(R"(static ::accel_simt::DynamicShared<([^;]*)> (\w+);)");
  struct Edit {
    size_t pos, len;
    std::string text;
  };
  std::vector<Edit> edits;
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), shared); it != std::sregex_iterator(); ++it) {
    const size_t at = static_cast<size_t>(it->position(0));
    const size_t line = scan.rfind('\n', at) + 1;  // npos + 1 == 0
    if (scan.find_first_not_of(" \t", line) < at && scan[scan.find_first_not_of(" \t", line)] == '#')
      continue;  // a macro's text
    const size_t body = at + 10, end = scan.find(';', body);
    if (end == std::string::npos) continue;
    if (std::regex_search(scan.substr(line, at - line), std::regex(R"(\bextern\b)"))) continue;
    std::string decl = text.substr(body, end - body);
    std::string align;
    std::smatch a;
    static const std::regex align_re(R"(__align__\s*\(\s*\d+\s*\))");
    if (std::regex_search(decl, a, align_re)) {
      align = a.str(0) + " ";
      decl = a.prefix().str() + std::string(static_cast<size_t>(a.length(0)), ' ') + a.suffix().str();
    }
    std::vector<std::string> parts;  // the declarators, split at commas outside brackets
    int depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= decl.size(); ++i) {
      const char c = i < decl.size() ? decl[i] : ',';
      depth += (c == '[' || c == '(' || c == '<') ? 1 : (c == ']' || c == ')' || c == '>') ? -1 : 0;
      if (c == ',' && depth == 0) {
        parts.push_back(decl.substr(from, i - from));
        from = i + 1;
      }
    }
    std::smatch m;
    if (!std::regex_match(parts[0], m, first) || m[1].str().find_first_not_of(" \t\n") == std::string::npos)
      continue;
    const std::string type = m[1].str();
    std::string out;
    bool all = true;
    for (size_t k = 0; k < parts.size() && all; ++k) {
      std::smatch d;
      const std::string part = k == 0 ? m[2].str() + m[3].str() : parts[k];
      all = std::regex_match(part, d, declarator);
      if (all)
        out += "__shared__ " + align + "::accel_simt::SharedArray<" + type + d[2].str() + "> " +
               d[1].str() + "{{}, \"" + d[1].str() + "\"}; ";
    }
    if (!all) continue;
    const std::string original = text.substr(at, end + 1 - at);
    out += std::string(static_cast<size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
    edits.push_back({at, end + 1 - at, out});
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), dynamic_local); it != std::sregex_iterator(); ++it) {
    const std::string type = (*it)[1].str(), name = (*it)[2].str();
    edits.push_back({static_cast<size_t>(it->position(0)), static_cast<size_t>(it->length(0)),
                     "::accel_simt::SharedView<" + type + "> " + name + "{reinterpret_cast<" + type +
                         "*>(::accel_simt::dynamic_shared()), \"" + name +
                         "\", ::accel_simt::dynamic_shared()};"});
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), dynamic_global); it != std::sregex_iterator(); ++it)
    edits.push_back({static_cast<size_t>(it->position(0)), static_cast<size_t>(it->length(0)),
                     "static ::accel_simt::DynamicShared<" + (*it)[1].str() + "> " + (*it)[2].str() +
                         "{\"" + (*it)[2].str() + "\"};"});
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.pos > b.pos; });
  std::string out = text;
  for (const Edit& e : edits) out.replace(e.pos, e.len, e.text);
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
    if (contains_any(scan, u.words) && std::regex_search(scan, m, unsupported[k]))
      throw CompileError("[RawKernel " + program_name + ":" +
                         std::to_string(line_of(scan, static_cast<size_t>(m.position(0)))) + "] " +
                         u.what + " (found '" + m.str(0) + "')");
  }

  PreparedSource out;
  for_each_match_at(scan, "__", barrier_names_re(), [&](const std::smatch&, size_t) { out.fibers = true; });
  for_each_match_at(scan, "__global__", global_function_re(), [&](const std::smatch& m, size_t at) {
    // A template kernel (`template <...> __global__`) needs a name expression.
    size_t p = at;
    while (p > 0 && std::isspace(static_cast<unsigned char>(scan[p - 1]))) --p;
    if (p > 0 && scan[p - 1] == '>') return;
    const std::string name = m[2].str();
    if (std::find(out.kernels.begin(), out.kernels.end(), name) == out.kernels.end())
      out.kernels.push_back(name);
    if (m[1].matched && at_global_scope(scan, p)) out.launch_bounds[name] = m[1].str();
  });

  // Edits from the end backwards, so earlier positions stay valid; each keeps the line count.
  struct Edit {
    size_t pos, len;
    std::string text;
  };
  std::vector<Edit> edits;
  // On the source itself: the blanked copy has lost the names of quoted includes.
  // An include line starts at a line start ('#' may follow blanks).
  for (size_t at = source.find("include"); at != std::string::npos; at = source.find("include", at + 1)) {
    const size_t line = source.rfind('\n', at) == std::string::npos ? 0 : source.rfind('\n', at) + 1;
    std::smatch m;
    using namespace std::regex_constants;
    if (std::regex_search(source.begin() + static_cast<long>(line), source.end(), m, provided_include_re(),
                          line == 0 ? match_continuous : match_continuous | match_prev_avail))
      edits.push_back({line, static_cast<size_t>(m.length(0)), ""});
  }
  for_each_match_at(scan, "extern", extern_shared_re(), [&](const std::smatch& m, size_t pos) {
    static const std::regex space(R"(\s+)");
    std::string type = std::regex_replace(
        std::regex_replace(source.substr(pos + static_cast<size_t>(m.position(1)),
                                         static_cast<size_t>(m.length(1))),
                           align_re(), ""),
        space, " ");
    type.erase(0, type.find_first_not_of(' '));
    type.erase(type.find_last_not_of(' ') + 1);
    const std::string name = m[2].str();
    const std::string original = source.substr(pos, static_cast<size_t>(m.length(0)));
    const std::string newlines(static_cast<size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
    std::string text =
        inside_function(scan, pos)
            ? type + "* " + name + " = reinterpret_cast<" + type + "*>(::accel_simt::dynamic_shared());"
            : "static ::accel_simt::DynamicShared<" + type + "> " + name + ";";
    edits.push_back({pos, static_cast<size_t>(m.length(0)), text + newlines});
  });
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.pos > b.pos; });
  out.text = source;
  for (const Edit& e : edits) out.text.replace(e.pos, e.len, e.text);
  return out;
}

}  // namespace accel::cpu
