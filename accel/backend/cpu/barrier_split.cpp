#include "accel/backend/cpu/barrier_split.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "accel/backend/cpu/raw_kernel_source.h"

namespace accel::cpu {
namespace {

// Thrown where a kernel cannot be split; the kernel (and so the module) keeps its fibers.
struct Unsplittable {};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `static thread_local` storage named `storage`, and a local pointer `pointer` to it. Kernels are
// dlopen'ed shared objects, so each access to a thread_local finds its address through a call to
// __tls_get_addr, and compilers recompute that address (the call) inside loops rather than keep
// it in a register: measured on a tree reduction, one call per thread per region, 2.4x its time.
// The empty asm hides where the pointer comes from, so it is computed once. `pointer` points to
// the whole of `storage` (its type has the dimensions, for sizeof and indexing), or with
// `element`, to its first element: a plain pointer, which vectorisers handle better.
std::string thread_storage(const std::string& type, const std::string& storage, const std::string& pointer,
                           const std::string& dims, bool element = false) {
  return " static thread_local " + type + " " + storage + dims + "; auto* " + pointer + " = " +
         (element ? "" : "&") + storage + "; asm(\"\" : \"+r\"(" + pointer + "));";
}
// Per-thread storage for a variable of the kernel (indexed by the thread's index in its block).
std::string per_thread_storage(const std::string& type, const std::string& name) {
  return thread_storage("std::remove_cv_t<" + type + ">", "accel_ptls_" + name, "accel_pt_" + name, "[1024]", true);
}

const std::regex kSyncNames(
    R"(\b(__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|__match_any_sync|__reduce_\w+_sync)\b)");
const std::regex kPlainBarrier(R"(^\s*__syncthreads\s*\(\s*\)\s*;\s*$)");
// A declaration: qualifiers and a type (one name, scoped or templated, then const, * and &),
// then the first declarator's name and what follows it.
const std::regex kDeclaration(
    R"(^\s*((?:(?:const|volatile|unsigned|signed|long|short|struct|class)\s+)*[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*(?:\s*<[^;{}()]*>)?(?:\s*(?:\bconst\b|\*|&))*)\s*\b([A-Za-z_]\w*)\s*([=;,\[\(\{]))");
const std::set<std::string> kStatementWords = {
    "return", "goto", "break", "continue", "case", "default", "delete", "new", "throw", "else",
    "do", "sizeof", "typedef", "using", "static_assert", "if", "for", "while", "switch", "__shared__",
    "static", "extern", "asm"};
// Names allowed before '(' in a uniform expression: casts.
const std::set<std::string> kCastWords = {"int", "unsigned", "long", "short", "char", "float",
                                          "double", "bool", "signed", "size_t", "const", "sizeof"};

struct Stmt {
  enum Kind { other, barrier, loop, branch, compound } kind = other;
  size_t begin = 0, end = 0;            // [begin, end) in the text
  size_t head_begin = 0, head_end = 0;  // loop / branch: inside the parentheses
  std::vector<Stmt> body;               // compound: statements; loop: {body}; branch: {then}
  std::vector<Stmt> alt;                // branch: {else}, if any
  bool has_sync = false;
  bool is_loop_like = false;            // for / while / do / switch: owns break and continue
};

struct Declarator {
  std::string name, init;  // init: "" if none
  size_t init_begin = 0;   // where init starts in the text
};
struct Declaration {
  std::string type;
  std::vector<Declarator> names;
  bool simple = true;  // every declarator is `name` or `name = init`
};

class KernelSplitter {
 public:
  // `interleave`: run block- and grid-stride loops a round of iterations at a time (StrideLoop).
  KernelSplitter(const std::string& text, const std::string& scan, const std::string& program,
                 const std::set<std::string>& thread_macros, bool interleave)
      : text_(text), scan_(scan), program_(program), thread_macros_(thread_macros), interleave_(interleave) {}

  // The new body (braces included) of the kernel whose parameter list is [params_begin,
  // params_end) and body [body_begin, body_end); counts the barriers it removed.
  std::string split(size_t params_begin, size_t params_end, size_t body_begin, size_t body_end,
                    int* barriers) {
    body_begin_ = body_begin;
    body_end_ = body_end;
    read_parameters(params_begin, params_end);
    size_t p = body_begin;
    Stmt body = parse(p);
    if (body.kind != Stmt::compound) throw Unsplittable{};
    exits_ = std::regex_search(scan_.begin() + static_cast<long>(body_begin),
                               scan_.begin() + static_cast<long>(body_end), std::regex(R"(\breturn\b)"));
    // Local copies of the launch's thread_locals shadow them in the body: read in a loop, each
    // would be a __tls_get_addr call (see thread_storage); functions the kernel calls still
    // read the thread_locals, which hold the same values.
    std::string out = "{ const uint3 blockIdx = ::blockIdx; const dim3 blockDim = ::blockDim, gridDim = ::gridDim;"
                      " (void)blockIdx; (void)gridDim;"
                      " const unsigned accel_bx = blockDim.x, accel_by = blockDim.y, accel_bz = blockDim.z;";
    if (exits_)
      out += thread_storage("unsigned char", "accel_exited_tls", "accel_exited", "[1024]", true) +
             " for (unsigned accel_t = 0; accel_t < accel_bx * accel_by * accel_bz; ++accel_t) accel_exited[accel_t] = 0;";
    scopes_.emplace_back();
    out += emit_level(body.body);
    out += "}\n#line " + std::to_string(line_of(body_end)) + " \"" + program_ + "\"\n";
    *barriers = barriers_;
    return out;
  }

 private:
  const std::string& text_;
  const std::string& scan_;
  const std::string& program_;
  const std::set<std::string>& thread_macros_;
  const bool interleave_;
  size_t body_begin_ = 0, body_end_ = 0;
  std::set<std::string> uniform_;     // names readable at block level
  std::set<std::string> per_thread_;  // names that differ between threads
  std::set<std::string> declared_;    // every name declared at a block level
  std::set<std::string> loop_vars_;   // the variables of uniform loops
  std::vector<std::vector<std::string>> scopes_;  // per-thread variables in scope, by level
  bool exits_ = false;
  int barriers_ = 0, regions_ = 0;

  int line_of(size_t pos) const {
    return 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + static_cast<long>(pos), '\n'));
  }
  std::string line_directive(size_t pos) const {
    return "\n#line " + std::to_string(line_of(pos)) + " \"" + program_ + "\"\n";
  }
  size_t skip_ws(size_t p) const {
    while (p < scan_.size() && std::isspace(static_cast<unsigned char>(scan_[p]))) ++p;
    return p;
  }
  bool word_at(size_t p, const char* w) const {
    const size_t n = std::char_traits<char>::length(w);
    return scan_.compare(p, n, w) == 0 && (p + n >= scan_.size() || !ident_char(scan_[p + n])) &&
           (p == 0 || !ident_char(scan_[p - 1]));
  }
  // The position after the bracket matching the one at `open`.
  size_t match(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < scan_.size(); ++i) {
      const char c = scan_[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (--depth == 0) return i + 1;
      }
    }
    throw Unsplittable{};
  }
  bool has_sync(size_t b, size_t e) const {
    return std::regex_search(scan_.begin() + static_cast<long>(b), scan_.begin() + static_cast<long>(e),
                             kSyncNames);
  }
  std::string scan_text(size_t b, size_t e) const { return scan_.substr(b, e - b); }

  Stmt parse(size_t& p) {
    p = skip_ws(p);
    if (p >= body_end_) throw Unsplittable{};
    Stmt s;
    s.begin = p;
    if (scan_[p] == '{') {
      s.kind = Stmt::compound;
      size_t q = p + 1;
      for (;;) {
        q = skip_ws(q);
        if (q >= body_end_) throw Unsplittable{};
        if (scan_[q] == '}') break;
        s.body.push_back(parse(q));
      }
      s.end = q + 1;
    } else if (word_at(p, "for") || word_at(p, "while") || word_at(p, "if") || word_at(p, "switch")) {
      const bool branch = word_at(p, "if");
      const size_t open = skip_ws(p + (branch ? 2 : scan_[p] == 'f' ? 3 : scan_[p] == 'w' ? 5 : 6));
      if (scan_[open] != '(') throw Unsplittable{};
      const size_t close = match(open);
      s.head_begin = open + 1;
      s.head_end = close - 1;
      size_t q = close;
      s.body.push_back(parse(q));
      s.kind = branch ? Stmt::branch : Stmt::loop;
      s.is_loop_like = !branch;
      if (word_at(p, "switch")) s.kind = Stmt::other;
      if (branch) {
        const size_t e = skip_ws(q);
        if (word_at(e, "else")) {
          q = e + 4;
          s.alt.push_back(parse(q));
        }
      }
      s.end = q;
    } else if (word_at(p, "do")) {
      size_t q = p + 2;
      parse(q);
      q = skip_ws(q);
      if (!word_at(q, "while")) throw Unsplittable{};
      const size_t open = skip_ws(q + 5);
      if (scan_[open] != '(') throw Unsplittable{};
      q = skip_ws(match(open));
      if (scan_[q] != ';') throw Unsplittable{};
      s.end = q + 1;
      s.is_loop_like = true;
    } else {
      size_t q = p;
      while (q < body_end_ && scan_[q] != ';') {
        if (scan_[q] == '(' || scan_[q] == '[' || scan_[q] == '{') {
          q = match(q);
        } else if (scan_[q] == '}') {
          throw Unsplittable{};
        } else {
          ++q;
        }
      }
      if (q >= body_end_) throw Unsplittable{};
      s.end = q + 1;
    }
    s.has_sync = has_sync(s.begin, s.end);
    if (s.kind == Stmt::other && s.has_sync) {
      if (!std::regex_match(scan_text(s.begin, s.end), kPlainBarrier)) throw Unsplittable{};
      s.kind = Stmt::barrier;
    }
    p = s.end;
    return s;
  }

  void read_parameters(size_t b, size_t e) {
    int depth = 0;
    size_t start = b;
    for (size_t i = b; i <= e; ++i) {
      const char c = i < e ? scan_[i] : ',';
      depth += (c == '(' || c == '<' || c == '[') ? 1 : (c == ')' || c == '>' || c == ']') ? -1 : 0;
      if (c != ',' || depth > 0) continue;
      size_t end = i;
      while (end > start && !ident_char(scan_[end - 1])) --end;
      size_t begin = end;
      while (begin > start && ident_char(scan_[begin - 1])) --begin;
      if (begin < end) {
        const std::string name = scan_.substr(begin, end - begin);
        // A parameter the body assigns differs between threads, but split code has one copy.
        if (assigned(name, 0, 0)) throw Unsplittable{};
        uniform_.insert(name);
      }
      start = i + 1;
    }
  }

  // Whether the kernel body assigns `name` (or takes its address) outside [skip_b, skip_e).
  bool assigned(const std::string& name, size_t skip_b, size_t skip_e) const {
    return assigned_in(name, body_begin_, body_end_, skip_b, skip_e);
  }
  bool assigned_in(const std::string& name, size_t from, size_t to, size_t skip_b, size_t skip_e) const {
    // x = , x += , x++ , ++x , and a unary &x (not a bitwise and, nor &x[i] or &x->f).
    const std::regex r("\\b" + name +
                       R"(\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|\b)" + name + R"(\s*(?:\+\+|--)|(?:\+\+|--)\s*)" +
                       name + R"(\b|(?:^|[=(,;{}?:!~+\-*/%<>|^\[])\s*&\s*)" + name + R"(\b(?!\s*(?:\[|->)))");
    for (auto it = std::sregex_iterator(scan_.begin() + static_cast<long>(from),
                                        scan_.begin() + static_cast<long>(to), r);
         it != std::sregex_iterator(); ++it) {
      const size_t pos = from + static_cast<size_t>(it->position(0));
      if (pos < skip_b || pos >= skip_e) return true;
    }
    return false;
  }

  // Whether the expression [b, e) has one value for every thread of a block.
  bool uniform(size_t b, size_t e) const {
    for (size_t i = b; i < e;) {
      const char c = scan_[i];
      if (c == '[' || (c == '-' && i + 1 < e && scan_[i + 1] == '>')) return false;
      if (!ident_char(c) || std::isdigit(static_cast<unsigned char>(c))) {
        if (std::isdigit(static_cast<unsigned char>(c)))
          while (i < e && (ident_char(scan_[i]) || scan_[i] == '.')) ++i;  // 1.5f, 0x10u
        else
          ++i;
        continue;
      }
      size_t j = i;
      while (j < e && ident_char(scan_[j])) ++j;
      const std::string w = scan_.substr(i, j - i);
      size_t before = i;
      while (before > b && std::isspace(static_cast<unsigned char>(scan_[before - 1]))) --before;
      const bool member = before > b && scan_[before - 1] == '.';
      const size_t after = skip_ws(j);
      if (!member) {
        if (w == "threadIdx" || per_thread_.count(w) || thread_macros_.count(w)) return false;
        if (after < e && scan_[after] == '(' && !kCastWords.count(w)) return false;  // a call
        if (declared_.count(w) && !uniform_.count(w)) return false;
      }
      i = j;
    }
    return true;
  }

  bool parse_declaration(const Stmt& s, Declaration* d) const {
    const std::string t = scan_text(s.begin, s.end);
    std::smatch m;
    if (!std::regex_search(t, m, kDeclaration)) return false;
    std::string first_word = m[1].str();
    first_word = first_word.substr(0, first_word.find_first_of(" \t\n<:*&"));
    if (kStatementWords.count(first_word) || kStatementWords.count(m[2].str())) return false;
    d->type = text_.substr(s.begin + static_cast<size_t>(m.position(1)), static_cast<size_t>(m.length(1)));
    // The declarators, split at top-level commas.
    const size_t from = s.begin + static_cast<size_t>(m.position(2));
    int depth = 0;
    size_t start = from;
    for (size_t i = from; i < s.end; ++i) {
      const char c = scan_[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if ((c != ',' && c != ';') || depth > 0) continue;
      const std::string decl = scan_text(start, i);
      std::smatch n;
      static const std::regex kDeclarator(R"(^\s*([A-Za-z_]\w*)\s*(?:=([\s\S]*))?$)");
      if (std::regex_match(decl, n, kDeclarator)) {
        const size_t init = n[2].matched ? start + static_cast<size_t>(n.position(2)) : i;
        d->names.push_back({n[1].str(), n[2].matched ? text_.substr(init, i - init) : "", init});
        if (n[2].matched && n[2].str().find_first_not_of(" \t\n") == std::string::npos) return false;
      } else {
        d->simple = false;
        size_t k = start;
        while (k < i && !ident_char(scan_[k])) ++k;
        size_t l = k;
        while (l < i && ident_char(scan_[l])) ++l;
        if (l > k) d->names.push_back({scan_.substr(k, l - k), "", i});
      }
      start = i + 1;
    }
    return !d->names.empty();
  }

  // The statements of one block level (a kernel body, or the body of a uniform loop or branch).
  std::string emit_level(const std::vector<Stmt>& stmts) {
    std::string out;
    std::vector<const Stmt*> region;
    auto flush = [&] {
      if (!region.empty()) out += emit_region(region);
      region.clear();
    };
    for (const Stmt& s : stmts) {
      Declaration d;
      const std::string words = scan_text(s.begin, std::min(s.end, s.begin + 32));
      const bool hoisted = std::regex_search(words, std::regex(R"(^\s*(__shared__|typedef|using|static_assert)\b)"));
      if (!s.has_sync && hoisted) {
        flush();
        out += line_directive(s.begin) + shared_through_pointer(text_.substr(s.begin, s.end - s.begin));
        continue;
      }
      if (!s.has_sync && s.kind == Stmt::other && parse_declaration(s, &d)) {
        for (const Declarator& v : d.names)
          if (declared_.count(v.name) || uniform_.count(v.name)) throw Unsplittable{};  // one name, one variable
        // Declarator by declarator (`int t = threadIdx.x, n = blockDim.x;`): uniform ones are
        // declared once per block, where the threads have all done what comes before them.
        std::string hoist;
        bool all_uniform = true;
        for (const Declarator& v : d.names) {
          declared_.insert(v.name);
          const bool u = d.simple && !v.init.empty() && !assigned(v.name, s.begin, s.end) &&
                         d.type.find('&') == std::string::npos &&
                         uniform(v.init_begin, v.init_begin + v.init.size());
          if (u) {
            uniform_.insert(v.name);
            hoist += " " + d.type + " " + v.name + " = " + v.init + ";";
          } else {
            per_thread_.insert(v.name);
            all_uniform = false;
          }
        }
        if (!hoist.empty()) {
          flush();
          out += line_directive(s.begin) + (all_uniform ? text_.substr(s.begin, s.end - s.begin) : hoist);
        }
        if (!all_uniform) region.push_back(&s);
        continue;
      }
      if (!s.has_sync && interleave_ && s.kind == Stmt::loop) {
        StrideLoop loop;
        if (stride_loop(s, &loop)) {
          flush();
          out += emit_stride_loop(s, loop);
          continue;
        }
      }
      if (!s.has_sync) {
        region.push_back(&s);
        continue;
      }
      flush();
      switch (s.kind) {
        case Stmt::barrier:
          ++barriers_;
          break;
        case Stmt::compound:
          scopes_.emplace_back();
          out += "{" + emit_level(s.body) + "}";
          scopes_.pop_back();
          break;
        case Stmt::branch:
          if (!uniform(s.head_begin, s.head_end)) throw Unsplittable{};
          out += line_directive(s.begin) + "if (" + text_.substr(s.head_begin, s.head_end - s.head_begin) +
                 ") {" + emit_nested(s.body[0]) + "}";
          if (!s.alt.empty()) out += " else {" + emit_nested(s.alt[0]) + "}";
          break;
        case Stmt::loop: {
          if (!word_at(s.begin, "for")) throw Unsplittable{};
          emit_uniform_for(s, &out);
          break;
        }
        default:
          throw Unsplittable{};
      }
    }
    flush();
    return out;
  }

  // `__shared__ T name[dims];` becomes per-OS-thread storage reached through a local pointer
  // (see thread_storage); other statements (several declarators, `extern`, typedefs) stay as
  // they are.
  static std::string shared_through_pointer(const std::string& stmt) {
    static const std::regex kSharedDecl(
        R"(^\s*__shared__\s+([^;\[\]=,{}]*?[^;\[\]=,{}\s])\s*\b([A-Za-z_]\w*)\s*((?:\[[^\[\];]*\]\s*)*);\s*$)");
    std::smatch m;
    if (!std::regex_match(stmt, m, kSharedDecl)) return stmt;
    const std::string name = m[2].str();
    return thread_storage(m[1].str(), "accel_sh_" + name, "accel_shp_" + name, m[3].str()) + " auto& " + name +
           " = *accel_shp_" + name + ";" + std::string(static_cast<size_t>(std::count(stmt.begin(), stmt.end(), '\n')), '\n');
  }

  std::string emit_nested(const Stmt& s) {
    scopes_.emplace_back();
    std::string out = emit_level(s.kind == Stmt::compound ? s.body : std::vector<Stmt>{s});
    scopes_.pop_back();
    return out;
  }

  // A block- or grid-stride loop, `for (T i = init; cond; i += stride)` with a uniform stride
  // that reads blockDim or gridDim, as in `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
  // i += blockDim.x * gridDim.x)`. Run thread after thread, each thread would sweep the whole
  // range `stride` elements apart, and the threads after it sweep it again, one element over:
  // strides of a power of two land in the same few cache sets, so every access misses (measured:
  // a tree reduction over 1e7 floats took 17x accel.sum). Interleaved instead, one iteration of
  // every thread per round, each round reads contiguous memory, as the GPU does.
  struct StrideLoop {
    std::string type, var, init, cond, step;
    size_t init_begin = 0, cond_begin = 0, step_begin = 0;
  };
  bool stride_loop(const Stmt& s, StrideLoop* loop) const {
    if (!word_at(s.begin, "for")) return false;
    const std::string head = scan_text(s.head_begin, s.head_end);
    const size_t semi1 = head.find(';');
    const size_t semi2 = semi1 == std::string::npos ? semi1 : head.find(';', semi1 + 1);
    if (semi2 == std::string::npos) return false;
    static const std::regex kInit(
        R"(^\s*((?:unsigned\s+|signed\s+|long\s+|short\s+)*[A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*=([\s\S]*)$)");
    std::smatch m;
    const std::string init = head.substr(0, semi1);
    if (!std::regex_match(init, m, kInit)) return false;
    loop->type = m[1].str();
    loop->var = m[2].str();
    if (loop->type == "auto" || declared_.count(loop->var) || uniform_.count(loop->var)) return false;
    loop->init_begin = s.head_begin + static_cast<size_t>(m.position(3));
    loop->init = text_.substr(loop->init_begin, semi1 - static_cast<size_t>(m.position(3)));
    loop->cond_begin = s.head_begin + semi1 + 1;
    loop->cond = text_.substr(loop->cond_begin, semi2 - semi1 - 1);
    // The condition is evaluated twice per iteration (to run it, and to know whether another
    // round is needed): it must not change anything.
    static const std::regex kSideEffect(R"(\+\+|--|(?:^|[^=!<>])=(?!=))");
    if (std::regex_search(scan_text(loop->cond_begin, s.head_begin + semi2), kSideEffect)) return false;
    const std::string step = head.substr(semi2 + 1);
    static const std::regex kStep(R"(^\s*([A-Za-z_]\w*)\s*\+=([\s\S]*)$)");
    if (!std::regex_match(step, m, kStep) || m[1].str() != loop->var) return false;
    loop->step_begin = s.head_begin + semi2 + 1;
    loop->step = text_.substr(loop->step_begin, s.head_end - loop->step_begin);
    const size_t stride_b = s.head_begin + semi2 + 1 + static_cast<size_t>(m.position(2));
    if (!uniform(stride_b, s.head_end)) return false;
    static const std::regex kDims(R"(\b(blockDim|gridDim)\b)");
    if (!std::regex_search(scan_text(stride_b, s.head_end), kDims)) return false;
    // The body runs inside `do { } while (0)`: `continue` still ends the iteration, but `break`
    // would not end the loop; a `return` or `goto` would leave a round.
    static const std::regex kLeaves(R"(\b(break|return|goto|__shared__|static)\b)");
    return !std::regex_search(scan_text(s.body[0].begin, s.body[0].end), kLeaves);
  }
  std::string emit_stride_loop(const Stmt& s, const StrideLoop& loop) {
    const std::string id = std::to_string(regions_++);
    const std::string more = "accel_more_" + id;
    std::string out = line_directive(s.begin) + "{" + per_thread_storage(loop.type, loop.var);
    scopes_.emplace_back(std::vector<std::string>{loop.var});
    out += thread_loop(line_directive(loop.init_begin) + loop.var + " = " + loop.init + ";",
                       "accel_next_thread_" + id + "a");
    const std::string body = text_.substr(s.body[0].begin, s.body[0].end - s.body[0].begin);
    out += "\nfor (unsigned " + more + " = 1; " + more + ";) { " + more + " = 0;" +
           consecutive_round(s, loop, body, id) +
           thread_loop(line_directive(loop.cond_begin) + "if (" + loop.cond + ") { do {" +
                           line_directive(s.body[0].begin) + body + "\n} while (0);" +
                           line_directive(loop.step_begin) + loop.step + "; " + more + " |= (" + loop.cond +
                           ") ? 1u : 0u; }",
                       "accel_next_thread_" + id + "b") +
           "}}";
    scopes_.pop_back();
    return out;
  }

  // A round of a stride loop in which every thread is live and thread k's variable is the first
  // thread's plus k, as after `i = blockIdx.x * blockDim.x + threadIdx.x`: checked at run time,
  // each round. Then the variable is bound to that expression instead of being read from its
  // per-thread array, so the compiler sees x[i] as x[i0 + thread] (contiguous) and the round has
  // no condition: it vectorises, where the general round (conditional stores through the
  // per-thread arrays) does not. The variable is written back after each iteration, so a body
  // that changes it still works. One-dimensional blocks and integer loop variables only, and no
  // thread may have returned (kernels with exits keep the general round).
  std::string consecutive_round(const Stmt& s, const StrideLoop& loop, const std::string& body,
                                const std::string& id) const {
    static const std::regex kIntegerType(
        R"(^\s*(?:(?:(?:unsigned|signed|long|short|int|char)\b\s*)+|(?:std::)?(?:size_t|ptrdiff_t|u?int(?:8|16|32|64)_t)\s*)$)");
    if (exits_ || !std::regex_match(loop.type, kIntegerType)) return "";
    const std::string T = "std::remove_cv_t<" + loop.type + ">", v = loop.var;
    const std::string first = "accel_first_" + id, all = "accel_all_" + id, arr = "accel_pt_" + v;
    std::string bind;  // the thread's variables, the loop variable as the first one's plus k
    for (const auto& scope : scopes_)
      for (const std::string& name : scope)
        if (name != v) bind += " auto& " + name + " = accel_pt_" + name + "[accel_tx];";
    const std::string thread =
        " ::threadIdx = uint3{accel_tx, 0, 0}; const uint3 threadIdx = {accel_tx, 0, 0}; (void)threadIdx;" + bind +
        " " + T + " " + v + " = " + first + " + static_cast<" + T + ">(accel_tx);";
    const std::string loop_tx = "for (unsigned accel_tx = 0; accel_tx < accel_bx; ++accel_tx) {";
    return "\nif (accel_by == 1 && accel_bz == 1) { const " + T + " " + first + " = " + arr + "[0]; unsigned " + all +
           " = 1;\n" + loop_tx + thread + line_directive(loop.cond_begin) + all + " &= (" + arr +
           "[accel_tx] == " + v + " && (" + loop.cond + ")) ? 1u : 0u; }\nif (" + all + ") {\n" + loop_tx +
           thread + " { do {" + line_directive(s.body[0].begin) + body + "\n} while (0);" +
           line_directive(loop.step_begin) + loop.step + "; " + arr + "[accel_tx] = " + v + "; " + "accel_more_" +
           id + " |= (" + loop.cond + ") ? 1u : 0u; } }\ncontinue; } }";
  }

  // `for (T i = uniform; uniform; uniform)` around barriers: run once per block.
  void emit_uniform_for(const Stmt& s, std::string* out) {
    const std::string head = scan_text(s.head_begin, s.head_end);
    const size_t semi1 = head.find(';');
    const size_t semi2 = semi1 == std::string::npos ? semi1 : head.find(';', semi1 + 1);
    if (semi2 == std::string::npos) throw Unsplittable{};
    static const std::regex kLoopVar(
        R"(^\s*(?:const\s+|unsigned\s+|signed\s+|long\s+|short\s+)*[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*=([\s\S]*)$)");
    std::smatch m;
    const std::string init = head.substr(0, semi1);
    if (!std::regex_match(init, m, kLoopVar)) throw Unsplittable{};
    const std::string var = m[1].str();
    // A name of its own, or the variable of an earlier uniform loop (its scope has ended).
    if ((declared_.count(var) && !loop_vars_.count(var)) || per_thread_.count(var)) throw Unsplittable{};
    const size_t init_b = s.head_begin + static_cast<size_t>(m.position(2));
    if (!uniform(init_b, s.head_begin + semi1)) throw Unsplittable{};
    // The loop variable is uniform if only the header changes it (it exists in the loop only).
    if (assigned_in(var, s.body[0].begin, s.body[0].end, 0, 0)) throw Unsplittable{};
    declared_.insert(var);
    uniform_.insert(var);
    loop_vars_.insert(var);
    if (!uniform(s.head_begin + semi1 + 1, s.head_begin + semi2) ||
        !uniform(s.head_begin + semi2 + 1, s.head_end))
      throw Unsplittable{};
    *out += line_directive(s.begin) + "for (" + text_.substr(s.head_begin, s.head_end - s.head_begin) +
            ") {" + emit_nested(s.body[0]) + "}";
  }

  // Statements between barriers: one loop over the threads of the block.
  std::string emit_region(const std::vector<const Stmt*>& region) {
    const std::string id = std::to_string(regions_++);
    const std::string label = "accel_next_thread_" + id;
    std::string storage, body;
    for (const Stmt* s : region) {
      // `break` or `continue` outside a loop of the region would leave a loop around a barrier.
      if (!s->is_loop_like &&
          std::regex_search(scan_text(s->begin, s->end), std::regex(R"(\b(break|continue)\b)")))
        throw Unsplittable{};
      std::string t = text_.substr(s->begin, s->end - s->begin);
      const std::string scan = scan_text(s->begin, s->end);
      Declaration d;
      if (s->kind == Stmt::other && parse_declaration(*s, &d) &&
          std::any_of(d.names.begin(), d.names.end(), [&](const Declarator& v) { return per_thread_.count(v.name) > 0; })) {
        // Only variables read after this region's end (past a barrier) need an array.
        bool used_later = false;
        for (const Declarator& v : d.names)
          used_later = used_later || (per_thread_.count(v.name) &&
                                      std::regex_search(scan_.begin() + static_cast<long>(region.back()->end),
                                                        scan_.begin() + static_cast<long>(body_end_),
                                                        std::regex("\\b" + v.name + "\\b")));
        if (used_later) {
          // Kept per thread across barriers: an array indexed by the thread, assigned here.
          if (!d.simple || d.type.find('&') != std::string::npos ||
              std::regex_search(d.type, std::regex(R"(\bauto\b)")))
            throw Unsplittable{};
          if (exits_ && std::regex_search(scan, std::regex(R"(\breturn\b)"))) throw Unsplittable{};
          std::string assign;
          for (const Declarator& v : d.names) {
            if (!per_thread_.count(v.name)) continue;  // declared once per block, above
            storage += per_thread_storage(d.type, v.name);
            scopes_.back().push_back(v.name);
            if (!v.init.empty()) assign += (assign.empty() ? "" : ", ") + v.name + " = " + v.init;
          }
          t = assign + ";" + std::string(static_cast<size_t>(std::count(t.begin(), t.end(), '\n')), '\n');
        }
      }
      if (exits_) {
        static const std::regex kReturn(R"(\breturn\b)");
        std::string rewritten;
        size_t last = 0;
        for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kReturn); it != std::sregex_iterator(); ++it) {
          const size_t at = static_cast<size_t>(it->position(0));
          const size_t semi = skip_ws(s->begin + at + 6) - s->begin;
          if (semi >= scan.size() || scan[semi] != ';') throw Unsplittable{};
          rewritten += t.substr(last, at - last) + "{ accel_exited[accel_tid] = 1; goto " + label + "; }";
          last = semi + 1;
        }
        if (last > 0) t = rewritten + t.substr(last);
      }
      body += line_directive(s->begin) + t;
    }
    return storage + thread_loop(body, label);
  }

  // `body` once for each thread of the block, with the per-thread variables in scope bound to
  // the thread's element; `label` ends the thread's turn (a `return` goes there).
  std::string thread_loop(const std::string& body, const std::string& label) const {
    std::string bind;
    for (const auto& scope : scopes_)
      for (const std::string& name : scope) bind += " auto& " + name + " = accel_pt_" + name + "[accel_tid];";
    const std::string skip_exited = exits_ ? " if (accel_exited[accel_tid]) continue;" : "";
    // One-dimensional blocks (most kernels) get a loop of their own: with the thread's index
    // the loop counter itself, the compiler can vectorise it across threads. `body` appears
    // twice, so its `goto`s to `label` are renamed in the copy.
    std::string body_1d = body;
    for (size_t at = body_1d.find(label); at != std::string::npos; at = body_1d.find(label, at + label.size() + 3))
      body_1d.insert(at + label.size(), "_1d");
    return "\nif (accel_by == 1 && accel_bz == 1) for (unsigned accel_tx = 0; accel_tx < accel_bx; ++accel_tx) {"
           " const unsigned accel_tid = accel_tx;" + skip_exited +
           // The global index for functions the kernel calls; a local one the loop can keep in
           // registers.
           " ::threadIdx = uint3{accel_tx, 0, 0}; const uint3 threadIdx = {accel_tx, 0, 0}; (void)threadIdx;" +
           bind + " {" + body_1d + "\n} " + label + "_1d:; }\n"
           "else for (unsigned accel_tz = 0; accel_tz < accel_bz; ++accel_tz)"
           " for (unsigned accel_ty = 0; accel_ty < accel_by; ++accel_ty)"
           " for (unsigned accel_tx = 0; accel_tx < accel_bx; ++accel_tx) {"
           " const unsigned accel_tid = accel_tx + accel_bx * (accel_ty + accel_by * accel_tz);" + skip_exited +
           " ::threadIdx = uint3{accel_tx, accel_ty, accel_tz};"
           " const uint3 threadIdx = {accel_tx, accel_ty, accel_tz}; (void)threadIdx;" +
           bind + " {" + body + "\n} " + label + ":; }\n";
  }
};

}  // namespace

SplitSource split_at_barriers(const std::string& text, const std::string& program_name) {
  SplitSource out;
  out.text = text;
  const std::string scan = blank_comments_and_strings(text);
  int total = 0;
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kSyncNames); it != std::sregex_iterator(); ++it)
    ++total;
  if (total == 0) return out;
  // Macros whose text mentions threadIdx are not uniform.
  std::set<std::string> thread_macros;
  static const std::regex kDefine(R"((?:^|\n)[ \t]*#[ \t]*define[ \t]+(\w+)([^\n]*))");
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kDefine); it != std::sregex_iterator(); ++it)
    if ((*it)[2].str().find("threadIdx") != std::string::npos) thread_macros.insert((*it)[1].str());

  static const std::regex kKernel(
      R"(\b__global__\s+void\s+(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?(\w+)\s*\()");
  struct Edit {
    size_t begin, end;
    std::string text;
  };
  std::vector<Edit> edits;
  int split_barriers = 0;
  for (auto it = std::sregex_iterator(scan.begin(), scan.end(), kKernel); it != std::sregex_iterator(); ++it) {
    size_t p = static_cast<size_t>(it->position(0));
    while (p > 0 && std::isspace(static_cast<unsigned char>(scan[p - 1]))) --p;
    if (p > 0 && scan[p - 1] == '>') continue;  // a template: left to fibers
    const size_t params_begin = static_cast<size_t>(it->position(0) + it->length(0));
    int depth = 1;
    size_t q = params_begin;
    while (q < scan.size() && depth > 0) depth += scan[q] == '(' ? 1 : scan[q] == ')' ? -1 : 0, ++q;
    const size_t params_end = q - 1;
    while (q < scan.size() && std::isspace(static_cast<unsigned char>(scan[q]))) ++q;
    if (q >= scan.size() || scan[q] != '{') continue;  // a declaration
    int braces = 0;
    size_t e = q;
    for (; e < scan.size(); ++e) {
      braces += scan[e] == '{' ? 1 : scan[e] == '}' ? -1 : 0;
      if (braces == 0) break;
    }
    if (e >= scan.size()) continue;
    const size_t body_end = e + 1;
    if (!std::regex_search(scan.begin() + static_cast<long>(q), scan.begin() + static_cast<long>(body_end), kSyncNames))
      continue;
    // Interleaving stride loops turns the locals they use into per-thread arrays, which some
    // declarations cannot be: such a kernel is split without it.
    for (const bool interleave : {true, false}) {
      try {
        KernelSplitter splitter(text, scan, program_name, thread_macros, interleave);
        int barriers = 0;
        std::string body = splitter.split(params_begin, params_end, q, body_end, &barriers);
        edits.push_back({q, body_end, std::move(body)});
        out.kernels.push_back((*it)[1].str());
        split_barriers += barriers;
        break;
      } catch (const Unsplittable&) {
        // left to fibers
      } catch (const std::regex_error&) {
        // a name the splitter could not form a pattern of: left to fibers
      }
    }
  }
  if (split_barriers != total) {  // a barrier or warp function elsewhere: the module stays on fibers
    out.kernels.clear();
    return out;
  }
  out.all_barriers_split = true;
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  for (const Edit& ed : edits) out.text.replace(ed.begin, ed.end - ed.begin, ed.text);
  return out;
}

}  // namespace accel::cpu
