// The CUDA backend's generated kernels run without a GPU: their exact source (the CUDA dialect,
// nvrtc_std.cuh in place of the standard library, the args struct) is compiled as host C++ with
// the CUDA built-ins of the SIMT emulator (simt_host.h) into a shared library, and launched on
// the emulator (a small grid, so the grid-stride loop takes several turns) with the args the
// backend packs for real arrays. This checks the addressing end to end (transposed, broadcast,
// strided outputs, more than 8 axes, fused regions), and measures the textbook complex functions
// of nvrtc_std.cuh against the C library's (the CPU backend's), within the tolerances the GPU
// tests allow.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cuda/elementwise_kernels.h"
#include "accel/backend/cuda/template_kernels.h"
#include "accel/codegen/emit.h"
#include "accel/ir/fuse.h"
#include "simt_host.h"

namespace accel {
namespace {

// A small grid, so that the grid-stride loops take several turns.
constexpr simt::Index kGrid{3, 1, 1}, kBlock{32, 1, 1};

// A shared library of kernel source compiled as host C++ against the emulator's CUDA built-ins
// (simt_host.h in its kernel-library form, which needs no standard header) and attached to this
// program's emulator.
// kNoHalf: the kernel library form has no 16-bit float types (CUDA's __half and __nv_bfloat16
// come from cuda_fp16.h and cuda_bf16.h, which need NVRTC); cuda_elementwise_test compiles every
// float16 and bfloat16 kernel with NVRTC instead.
bool no_library_type(Dtype dt) { return dt == float16 || dt == bfloat16; }  // kNoHalf

class KernelLibrary {
 public:
  explicit KernelLibrary(const std::string& kernels) {
    dir_ = std::filesystem::temp_directory_path() /
           ("accel-cuda-host-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "kernels.cpp") << "#define SIMT_KERNEL_LIBRARY\n#include \"simt_host.h\"\n"
                                        << kernels;
    const char* env = std::getenv("ACCEL_CXX");
    const std::string cxx = env && *env ? env : "c++";
    const std::string cmd =
        cxx + " -std=c++17 -O1 -ffp-contract=off -fPIC -shared -w -I" ACCEL_TESTS_CPP_DIR + " -I" ACCEL_REPO_DIR +
        " -o " +
        (dir_ / "kernels.so").string() + " " + (dir_ / "kernels.cpp").string() + " 2> " +
        (dir_ / "log.txt").string();
    if (std::system(cmd.c_str()) != 0) {
      std::ifstream log(dir_ / "log.txt");
      error_ = cmd + "\n" + std::string(std::istreambuf_iterator<char>(log), {});
      return;
    }
    handle_ = dlopen((dir_ / "kernels.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      error_ = dlerror();
      return;
    }
    simt::attach(reinterpret_cast<simt::AttachFn>(dlsym(handle_, "simt_attach")));
  }
  ~KernelLibrary() {
    if (handle_) dlclose(handle_);
    std::filesystem::remove_all(dir_);
  }
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;
  const std::string& error() const { return error_; }
  void* symbol(const std::string& name) const {
    return handle_ ? dlsym(handle_, name.c_str()) : nullptr;
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  void* handle_ = nullptr;
  std::string error_;
};

// The kernels of `irs` (one translation unit, as NVRTC would see each); run(i, args) launches
// irs[i] on the emulator with a packed args struct.
class HostBuild {
 public:
  explicit HostBuild(const std::vector<ir::KernelIR>& irs) : library_(source(irs)) {
    for (const ir::KernelIR& k : irs)
      entries_.push_back(reinterpret_cast<Entry>(library_.symbol("run_" + k.name())));
  }
  const std::string& error() const { return library_.error(); }
  // `values`: the by-value parameters' bytes, in input order.
  void run(size_t i, const std::string& args, const std::vector<const void*>& values = {}) const {
    const Entry entry = entries_.at(i);
    simt::launch(kGrid, kBlock, [&] { entry(args.data(), values.data()); });
  }

 private:
  using Entry = void (*)(const void*, const void* const*);
  static std::string source(const std::vector<ir::KernelIR>& irs) {
    std::string src = codegen::emit_prelude(codegen::cuda_dialect());
    for (const ir::KernelIR& k : irs) {
      const std::string name = k.name();
      src += codegen::emit_kernel_body(k, codegen::cuda_dialect());
      src += "extern \"C\" void run_" + name + "(const void* p, const void* const* v) { " + name +
             "(*static_cast<const " + name + "_args*>(p)";
      size_t j = 0;
      for (const ir::Operand& o : k.inputs)
        if (o.layout == ir::Layout::by_value)
          src += std::string(", *static_cast<const ") + codegen::c_type(o.dtype) + "*>(v[" +
                 std::to_string(j++) + "])";
      src += "); }\n";
    }
    return src;
  }
  KernelLibrary library_;
  std::vector<Entry> entries_;
};

// What the backend does on the GPU, with the emulator instead of cuLaunchKernel: returns the IR
// it would launch (layouts set) after running it.
ir::KernelIR launch_on_host(const ir::KernelIR& ir, std::span<const Array> inputs,
                            std::span<const Array> outputs) {
  auto launch = cuda::plan_generated_kernel(ir, inputs, outputs);
  EXPECT_TRUE(launch.has_value());
  HostBuild build({launch->ir});
  EXPECT_EQ(build.error(), "");
  if (!build.error().empty()) return launch->ir;
  std::vector<const void*> values;
  for (const cuda::ByValueParam& v : launch->values) values.push_back(v.bytes.data());
  for (const std::string& args : launch->args) build.run(0, args, values);
  return launch->ir;
}

// The fused region of `roots` (one region, nothing deferred), run on the emulator into new
// outputs, one per output of the region's IR.
std::vector<Array> fused_region_on_host(std::span<const Array> roots) {
  ir::FusedRegion r = ir::fuse_elementwise(roots);
  EXPECT_TRUE(r.deferred.empty());
  std::vector<Array> outs;
  for (const ir::Operand& o : r.ir.outputs) outs.push_back(empty(r.shape, o.dtype));
  launch_on_host(r.ir, r.inputs, outs);
  return outs;
}

Array doubles(const Shape& shape, double scale, int seed) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::normal_distribution<double> normal(0, scale);
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (double& x : v) x = normal(rng);
  return Array::from_vector(v, shape, Device::cpu());
}

void expect_same(const Array& got, const Array& want, double rtol, const std::string& label) {
  auto g = astype(got, complex128).eval().to_vector<std::complex<double>>();
  auto w = astype(want, complex128).eval().to_vector<std::complex<double>>();
  ASSERT_EQ(g.size(), w.size()) << label;
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_LE(std::abs(g[i] - w[i]), rtol * std::abs(w[i])) << label << " at flat index " << i;
}

TEST(CudaKernelsOnHost, single_op_kernel_reads_transposed_and_broadcast_inputs_into_a_strided_view) {
  Array a = doubles({6, 5}, 1, 1);
  Array at = Array::view_of(a, {5, 6}, {1, 5}, 0);            // transposed
  Array row = doubles({6}, 1, 2);
  Array rows = Array::view_of(row, {5, 6}, {0, 1}, 0);        // broadcast down the rows
  Array buffer = zeros({5, 12}, float64);
  Array out = Array::view_of(buffer, {5, 6}, {12, 2}, 1);     // every other column, from 1
  const Array in[] = {at, rows};
  ir::KernelIR k = launch_on_host(cuda::op_kernel_ir(OpId::atan2, float64, float64), in, {&out, 1});
  EXPECT_EQ(k.inputs[0].layout, ir::Layout::strided);
  EXPECT_EQ(k.outputs[0].layout, ir::Layout::strided);
  // The CPU's atan2 is libmvec's (within 4 ulp), the emulated kernel's std::atan2.
  expect_same(out, atan2(at, rows), 1e-15, "atan2");
  // The columns in between stay untouched.
  expect_same(Array::view_of(buffer, {5, 6}, {12, 2}, 0), zeros({5, 6}, float64), 0, "gaps");
}

TEST(CudaKernelsOnHost, casts_between_strided_views_and_from_a_scalar) {
  std::vector<int16_t> v(40);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int16_t>(int(i) * 1000 - 20000);
  Array a = Array::from_vector(v, {8, 5}, Device::cpu());
  Array reversed = Array::view_of(a, {8, 5}, {-5, 1}, 35);
  Array out = empty({5, 8}, complex64);
  Array out_t = Array::view_of(out, {8, 5}, {1, 8}, 0);
  launch_on_host(cuda::cast_kernel_ir(int16, complex64), {&reversed, 1}, {&out_t, 1});
  expect_same(out_t, astype(reversed, complex64), 0, "int16 -> complex64");
  // fill's path: one value broadcast into a strided destination.
  Array one = Array::from_vector(std::vector<double>{-2.5}, {}, Device::cpu());
  Array all = Array::view_of(one, {8, 5}, {0, 0}, 0);
  Array dst = zeros({8, 10}, int8);
  Array cols = Array::view_of(dst, {8, 5}, {10, 2}, 0);
  ir::KernelIR k = launch_on_host(cuda::cast_kernel_ir(float64, int8), {&all, 1}, {&cols, 1});
  EXPECT_EQ(k.inputs[0].layout, ir::Layout::scalar);
  expect_same(cols, full({8, 5}, weak_scalar(-2, Device::cpu()), int8), 0, "fill");
}

TEST(CudaKernelsOnHost, more_than_eight_axes_split_into_launches_that_cover_everything) {
  std::vector<int32_t> v(2048);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(i);
  Array a = Array::from_vector(v, Shape(11, 2), Device::cpu());
  Strides s = a.strides();
  Array p = Array::view_of(a, Shape(11, 2), {s[10], s[0], s[9], s[1], s[8], s[2], s[7], s[3], s[6],
                                             s[4], s[5]}, 0);
  Array seven = Array::from_vector(std::vector<int32_t>{7}, {}, Device::cpu());
  const Array in[] = {p, Array::view_of(seven, Shape(11, 2), Strides(11, 0), 0)};
  Array out = empty(Shape(11, 2), int32);
  auto launch = cuda::plan_generated_kernel(cuda::op_kernel_ir(OpId::multiply, int32, int32), in,
                                            {&out, 1});
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch->args.size(), 4u);  // the last two axes merge: 10 left, 2 x 2 leading
  launch_on_host(cuda::op_kernel_ir(OpId::multiply, int32, int32), in, {&out, 1});
  expect_same(out, multiply(p, weak_scalar(7, Device::cpu())), 0, "11-d");
}

TEST(CudaKernelsOnHost, results_laid_out_as_a_transposed_input_launch_contiguous) {
  // exp(a.T) into an output laid out as a.T (ops/result_layout.h): the launch walks both in
  // memory order, so both are contiguous, and the values are the CPU's.
  Array a = doubles({40, 30}, 2, 7);
  Array at = Array::view_of(a, {30, 40}, {1, 30}, 0);
  Array out = empty({40, 30}, float64);
  Array out_t = Array::view_of(out, {30, 40}, {1, 30}, 0);
  ir::KernelIR k = launch_on_host(cuda::op_kernel_ir(OpId::exp, float64, float64), {&at, 1},
                                  {&out_t, 1});
  EXPECT_EQ(k.inputs[0].layout, ir::Layout::contiguous);
  EXPECT_EQ(k.outputs[0].layout, ir::Layout::contiguous);
  expect_same(out_t, exp(at), 1e-15, "exp(a.T)");
}

TEST(CudaKernelsOnHost, fused_region_with_two_outputs_matches_the_cpu_backend) {
  Array a = doubles({40, 30}, 2, 3), b = doubles({30}, 1, 4), c = doubles({30, 40}, 1, 5);
  Array at = Array::view_of(a, {30, 40}, {1, 30}, 0);
  Array bb = Array::view_of(b, {30, 40}, {1, 0}, 0);
  Array y = sin(at) * sin(at) + cos(at) * cos(at) - exp(negative(bb)) * c;
  Array z = astype(y * 2 + c, float32);
  Array roots[] = {y, z};
  std::vector<Array> outs = fused_region_on_host(roots);
  ASSERT_EQ(outs.size(), 2u);
  eval({y, z});
  expect_same(outs[0], y, 1e-15, "y");
  expect_same(outs[1], z, 0, "z");
}

TEST(CudaKernelsOnHost, sine_and_cosine_of_one_float_from_one_sincos_call_match_the_cpu_backend) {
  // The generated kernel takes both from std::sincos (fusion_codegen_test checks the source);
  // here it runs, each output from its half of the pair, within float32's rounding of the CPU's.
  Array x = astype(doubles({50, 40}, 10, 6), float32).eval();
  Array s = sin(x) + 4, c = cos(x) * 2 + 4;
  Array roots[] = {s, c};
  std::vector<Array> outs = fused_region_on_host(roots);
  ASSERT_EQ(outs.size(), 2u);
  eval({s, c});
  expect_same(outs[0], s, 1e-6, "sin");
  expect_same(outs[1], c, 1e-6, "cos");
}

TEST(CudaKernelsOnHost, by_value_operands_give_the_cpu_results_bit_for_bit) {
  // `(x * 0.1 - 7) * x` with its Python numbers as kernel parameters, as on a GPU (there fusion
  // gives them the compute dtype; here they keep float64 / int64 and the kernel casts them).
  for (Dtype dt : {float32, float64, int16}) {
    Array x = astype(doubles({70, 90}, 40, 6), dt).eval();  // past eager_small: lazy
    Array y = (x * 0.1 - 7) * x;
    ir::FusedRegion r = ir::fuse_elementwise({&y, 1});
    int by_value = 0;
    for (size_t k = 0; k < r.ir.inputs.size(); ++k) {
      if (r.ir.inputs[k].layout != ir::Layout::scalar) continue;
      r.ir.inputs[k].layout = ir::Layout::by_value;
      const Array& view = r.inputs[k];  // the number broadcast over the shape: pass it 0-d
      r.inputs[k] = Array::from_buffer(view.impl()->buffer, {}, {}, view.offset(), view.dtype());
      ++by_value;
    }
    ASSERT_EQ(by_value, 2) << dtype_name(dt);
    Array out = empty(r.shape, y.dtype());
    launch_on_host(r.ir, r.inputs, {&out, 1});
    expect_same(out, y, 0, dtype_name(dt));
  }
}

// Finite complex values, parts in [-3, 3], modulus at least 0.25 (as the GPU tests use).
Array moderate_complex(Dtype dt, int n, int seed) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_real_distribution<double> u(-3, 3);
  std::vector<std::complex<double>> v;
  while (static_cast<int>(v.size()) < n) {
    std::complex<double> z(u(rng), u(rng));
    if (std::abs(z) >= 0.25) v.push_back(z);
  }
  return astype(Array::from_vector(v, {n}, Device::cpu()), dt).eval();
}

TEST(CudaKernelsOnHost, textbook_complex_functions_are_within_the_gpu_tests_tolerances) {
  // tests/python/elementwise_oracle.py: TEXTBOOK_COMPLEX and TEXTBOOK_TOL.
  const OpId ops[] = {OpId::exp, OpId::exp2, OpId::log, OpId::log2, OpId::log10, OpId::sqrt,
                      OpId::sin, OpId::cos, OpId::tan, OpId::sinh, OpId::cosh, OpId::tanh,
                      OpId::asin, OpId::acos, OpId::atan, OpId::asinh, OpId::acosh, OpId::atanh,
                      OpId::pow};
  struct Tol { Dtype dt; double rtol, atol; };
  const Tol tols[] = {{complex64, 3e-5, 3e-6}, {complex128, 1e-12, 1e-13}};
  std::vector<ir::KernelIR> irs;
  for (const Tol& t : tols)
    for (OpId op : ops) irs.push_back(cuda::op_kernel_ir(op, t.dt, t.dt));
  HostBuild build(irs);
  ASSERT_EQ(build.error(), "");
  size_t i = 0;
  for (const Tol& t : tols) {
    const Array x = moderate_complex(t.dt, 2000, 11), w = moderate_complex(t.dt, 2000, 12);
    for (OpId op : ops) {
      const bool binary = op_info(op).arity == 2;
      std::vector<Array> in = {x};
      if (binary) in.push_back(w);
      Array out = empty({2000}, t.dt);
      auto launch = cuda::plan_generated_kernel(irs[i], in, {&out, 1});
      for (const std::string& args : launch->args) build.run(i, args);
      ++i;
      const Array want = elementwise(op, in).eval();
      auto g = astype(out, complex128).eval().to_vector<std::complex<double>>();
      auto e = astype(want, complex128).eval().to_vector<std::complex<double>>();
      auto xs = astype(x, complex128).eval().to_vector<std::complex<double>>();
      double worst = 0;
      for (size_t j = 0; j < g.size(); ++j) {
        const double err = std::abs(g[j] - e[j]), allowed = t.atol + t.rtol * std::abs(e[j]);
        worst = std::max(worst, err / allowed);
        EXPECT_LE(err, allowed) << op_name(op) << " " << dtype_name(t.dt) << " at " << xs[j]
                                << ": textbook " << g[j] << ", C library " << e[j];
        if (err > allowed) break;
      }
      std::printf("[ textbook ] %-6s %-10s worst error %.3f of the allowed\n", op_name(op),
                  dtype_name(t.dt), worst);
    }
  }
}

// 64 values of `dt` for op inputs: edge values (0, extremes, NaN, inf, -0.0) and random ones;
// for the textbook complex functions, moderate values only (module comment).
Array op_inputs(Dtype dt, bool moderate, int seed) {
  if (is_complex(dt) && moderate) return moderate_complex(dt, 64, seed);
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  std::vector<double> re(64), im(64);
  const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, INFINITY, -INFINITY, NAN, 1e-30, 1e30};
  std::normal_distribution<double> normal(0, 10);
  for (size_t i = 0; i < 64; ++i) {
    re[i] = i < 12 ? specials[i] : normal(rng);
    im[i] = i < 12 ? specials[(i * 5) % 12] : normal(rng);
  }
  if (is_integer(dt) || is_bool(dt)) {
    std::vector<uint64_t> bits(64);
    for (uint64_t& b : bits) b = rng();
    bits[0] = 0;
    bits[1] = 1;
    bits[2] = ~uint64_t{0};
    bits[3] = uint64_t{1} << 63;
    Array wide = Array::from_vector(bits, {64}, Device::cpu());
    if (is_bool(dt)) return astype(bitwise_and(wide, weak_scalar(1, Device::cpu())), bool_).eval();
    return astype(wide, dt).eval();  // wraps: every bit pattern of the narrower type appears
  }
  if (is_floating(dt)) return astype(Array::from_vector(re, {64}, Device::cpu()), dt).eval();
  // Complex parts stay below 1e15: where a product of parts overflows, NumPy's and the CPU
  // backend's answer (inf or NaN) depends on whether the compiler fused it into an FMA.
  std::vector<std::complex<double>> z(64);
  auto tame = [](double x) { return std::fabs(x) > 1e15 && std::isfinite(x) ? std::copysign(1e15, x) : x; };
  for (size_t i = 0; i < 64; ++i) z[i] = {tame(re[i]), tame(im[i])};
  return astype(Array::from_vector(z, {64}, Device::cpu()), dt).eval();
}

bool textbook(OpId op) {
  switch (op) {
    case OpId::exp: case OpId::exp2: case OpId::log: case OpId::log2: case OpId::log10:
    case OpId::sqrt: case OpId::sin: case OpId::cos: case OpId::tan: case OpId::sinh:
    case OpId::cosh: case OpId::tanh: case OpId::asin: case OpId::acos: case OpId::atan:
    case OpId::asinh: case OpId::acosh: case OpId::atanh: case OpId::pow:
      return true;
    default:
      return false;
  }
}

TEST(CudaKernelsOnHost, every_op_and_dtype_agrees_with_the_cpu_backend) {
  // The same functors on both sides: what differs is nvrtc_std.cuh (type traits, limits,
  // complex math) in place of the standard library, which this checks for every op and dtype.
  struct Case { OpId op; Dtype dt; };
  std::vector<Case> cases;
  std::vector<ir::KernelIR> irs;
  for (int o = 0; o < kNumOps; ++o)
    for (int d = 0; d < kNumDtypes; ++d) {
      const auto op = static_cast<OpId>(o);
      const auto dt = static_cast<Dtype>(d);
      const OpInfo& info = op_info(op);
      if (!op_accepts(info.bools, info.domain, dt) || no_library_type(dt)) continue;
      cases.push_back({op, dt});
      irs.push_back(cuda::op_kernel_ir(op, dt, op_output_dtype(op, dt)));
    }
  HostBuild build(irs);
  ASSERT_EQ(build.error(), "");
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto [op, dt] = cases[i];
    const bool moderate = is_complex(dt) && textbook(op);
    std::vector<Array> in;
    for (int a = 0; a < op_info(op).arity; ++a) in.push_back(op_inputs(dt, moderate, 100 + a));
    if (op == OpId::where) in[0] = astype(astype(in[0], bool_), dt).eval();
    Array out = empty({64}, op_output_dtype(op, dt));
    auto launch = cuda::plan_generated_kernel(irs[i], in, {&out, 1});
    for (const std::string& args : launch->args) build.run(i, args);
    Array want = Array::empty({64}, out.dtype(), Device::cpu());
    cpu::cpu_backend().elementwise(op, in, want);
    const std::string label = std::string(op_name(op)) + " " + dtype_name(dt);
    if (!is_inexact(out.dtype())) {
      EXPECT_EQ(out.to_vector<int64_t>(), want.to_vector<int64_t>()) << label;
      continue;
    }
    const bool single = out.dtype() == float32 || out.dtype() == complex64;
    const double rtol = moderate ? (single ? 3e-5 : 1e-12) : (single ? 4e-6 : 1e-13);
    const double atol = moderate ? (single ? 3e-6 : 1e-13) : 0;
    auto g = astype(out, complex128).eval().to_vector<std::complex<double>>();
    auto w = astype(want, complex128).eval().to_vector<std::complex<double>>();
    for (size_t j = 0; j < g.size(); ++j) {
      const auto same_special = [](double a, double b) {
        return (std::isnan(a) && std::isnan(b)) || a == b;
      };
      if (same_special(g[j].real(), w[j].real()) && same_special(g[j].imag(), w[j].imag())) continue;
      EXPECT_LE(std::abs(g[j] - w[j]), atol + rtol * std::abs(w[j]))
          << label << " element " << j << ": kernel " << g[j] << ", CPU " << w[j];
    }
  }
}

// The Array API standard's special values (issue 12: floor_divide at infinities, complex expm1
// and tanh at infinities, NaNs and signed zeros) come from the functors, so the kernels must give
// the CPU backend's answers: identical (zero signs too) where a part is inf, NaN or zero, within
// the textbook tolerance elsewhere. And tanh of a large real part is finite (Kahan's form).
TEST(CudaKernelsOnHost, standard_special_values_match_the_cpu_backend) {
  const double specials[] = {0.0,  -0.0,   1.0,      -1.0,      2.5, -2.5,
                             30.0, -800.0, INFINITY, -INFINITY, NAN};
  constexpr size_t k = std::size(specials);
  std::vector<double> re, im;
  for (double a : specials)
    for (double b : specials) re.push_back(a), im.push_back(b);
  std::vector<std::complex<double>> z(re.size());
  for (size_t i = 0; i < z.size(); ++i) z[i] = {re[i], im[i]};
  const Array x = Array::from_vector(re, {int64_t(k * k)}, Device::cpu());
  const Array y = Array::from_vector(im, {int64_t(k * k)}, Device::cpu());
  const Array zc = Array::from_vector(z, {int64_t(k * k)}, Device::cpu());
  struct Case { OpId op; Dtype dt; double rtol; };
  const Case cases[] = {{OpId::floor_divide, float32, 0}, {OpId::floor_divide, float64, 0},
                        {OpId::expm1, complex64, 3e-5}, {OpId::expm1, complex128, 1e-12},
                        {OpId::tanh, complex64, 3e-5}, {OpId::tanh, complex128, 1e-12}};
  std::vector<ir::KernelIR> irs;
  for (const Case& c : cases) irs.push_back(cuda::op_kernel_ir(c.op, c.dt, c.dt));
  HostBuild build(irs);
  ASSERT_EQ(build.error(), "");
  for (size_t i = 0; i < std::size(cases); ++i) {
    const Case& c = cases[i];
    std::vector<Array> in;
    if (c.op == OpId::floor_divide) in = {astype(x, c.dt).eval(), astype(y, c.dt).eval()};
    else in = {astype(zc, c.dt).eval()};
    Array out = empty({int64_t(k * k)}, c.dt);
    auto launch = cuda::plan_generated_kernel(irs[i], in, {&out, 1});
    for (const std::string& args : launch->args) build.run(i, args);
    Array want = Array::empty({int64_t(k * k)}, c.dt, Device::cpu());
    cpu::cpu_backend().elementwise(c.op, in, want);
    auto g = astype(out, complex128).eval().to_vector<std::complex<double>>();
    auto w = astype(want, complex128).eval().to_vector<std::complex<double>>();
    for (size_t j = 0; j < g.size(); ++j) {
      const double gp[] = {g[j].real(), g[j].imag()}, wp[] = {w[j].real(), w[j].imag()};
      for (int p = 0; p < 2; ++p) {
        const std::string at = std::string(op_name(c.op)) + " " + dtype_name(c.dt) + " at (" +
                               std::to_string(re[j]) + ", " + std::to_string(im[j]) + ") part " +
                               std::to_string(p);
        if (std::isnan(wp[p]) || std::isinf(wp[p]) || wp[p] == 0) {
          EXPECT_TRUE((std::isnan(gp[p]) && std::isnan(wp[p])) ||
                      (gp[p] == wp[p] && std::signbit(gp[p]) == std::signbit(wp[p])))
              << at << ": kernel " << gp[p] << ", CPU " << wp[p];
        } else {
          EXPECT_LE(std::fabs(gp[p] - wp[p]), c.rtol * std::fabs(wp[p]))
              << at << ": kernel " << gp[p] << ", CPU " << wp[p];
        }
      }
    }
  }
}

TEST(CudaKernelsOnHost, every_cast_pair_agrees_with_the_cpu_backend) {
  std::vector<ir::KernelIR> irs;
  for (int a = 0; a < kNumDtypes; ++a)
    for (int b = 0; b < kNumDtypes; ++b)
      if (!no_library_type(static_cast<Dtype>(a)) && !no_library_type(static_cast<Dtype>(b)))
        irs.push_back(cuda::cast_kernel_ir(static_cast<Dtype>(a), static_cast<Dtype>(b)));
  HostBuild build(irs);
  ASSERT_EQ(build.error(), "");
  for (size_t i = 0; i < irs.size(); ++i) {
    const Dtype from = irs[i].inputs[0].dtype, to = irs[i].outputs[0].dtype;
    Array in = op_inputs(from, false, 7);
    if (is_inexact(from) && (is_integer(to))) {
      // Only values the integer type holds: anything else is undefined in C (and NumPy).
      in = astype(astype(astype(in, int8), bool_), from).eval();  // 0 and 1, NaN -> 1
    }
    Array out = empty({64}, to);
    auto launch = cuda::plan_generated_kernel(irs[i], {&in, 1}, {&out, 1});
    for (const std::string& args : launch->args) build.run(i, args);
    Array want = astype(in, to).eval();
    const std::string label = std::string(dtype_name(from)) + " -> " + dtype_name(to);
    if (!is_inexact(to)) {
      EXPECT_EQ(out.to_vector<int64_t>(), want.to_vector<int64_t>()) << label;
      continue;
    }
    auto g = astype(out, complex128).eval().to_vector<std::complex<double>>();
    auto w = astype(want, complex128).eval().to_vector<std::complex<double>>();
    for (size_t j = 0; j < g.size(); ++j) {
      auto same_part = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
      const bool same = same_part(g[j].real(), w[j].real()) && same_part(g[j].imag(), w[j].imag());
      EXPECT_TRUE(same) << label << " element " << j << ": kernel " << g[j] << ", CPU " << w[j];
    }
  }
}

TEST(CudaKernelsOnHost, arange_kernel_matches_the_cpu_backend_bit_for_bit) {
  // The arange rule exists twice (cpu/fill.cpp's fill_sequence, the CUDA accel_arange): they
  // must agree to the last bit, wrap-around and rounding included.
  std::string src = cuda::arange_source();
  std::vector<Dtype> dts;
  for (int d = 0; d < kNumDtypes; ++d) {
    const auto dt = static_cast<Dtype>(d);
    if (dt == bool_ || no_library_type(dt)) continue;
    dts.push_back(dt);
    const std::string t = codegen::c_type(dt);
    src += "extern \"C\" void run_arange_" + std::to_string(d) +
           "(void* out, const void* first, const void* second, long long n) { accel_arange<" + t +
           ">(static_cast<" + t + "*>(out), *static_cast<const " + t + "*>(first), " +
           "*static_cast<const " + t + "*>(second), n); }\n";
  }
  const KernelLibrary lib(src);
  ASSERT_EQ(lib.error(), "");
  using Run = void (*)(void*, const void*, const void*, long long);
  struct Range { double start, stop, step; };
  const Range ranges[] = {{0.1, 3e5, 0.3}, {-1.5, 2.5, 0.25}, {5, -300, -3}, {0, 70000, 7},
                          {1e6, 1e6 + 5000, 0.37}};
  for (Dtype dt : dts) {
    auto run =
        reinterpret_cast<Run>(lib.symbol("run_arange_" + std::to_string(static_cast<int>(dt))));
    ASSERT_NE(run, nullptr);
    for (const Range& r : ranges) {
      Array want = arange(r.start, r.stop, r.step, dt, Device::cpu());
      if (want.size() < 3) continue;
      Array firsts = Array::view_of(want, {2}, {1}, 0).eval();
      Array got = empty(want.shape(), dt);
      const auto* first = static_cast<const char*>(firsts.data());
      simt::launch(kGrid, kBlock,
                   [&] { run(got.data(), first, first + want.itemsize(), want.size()); });
      EXPECT_EQ(std::memcmp(got.data(), want.data(), want.nbytes()), 0)
          << dtype_name(dt) << " arange(" << r.start << ", " << r.stop << ", " << r.step << ")";
    }
  }
}

// Kernel templates (ElementwiseKernel, ReductionKernel): their CUDA source on the emulator with
// the args the backend would pass, against the CPU backend's run of the same kernel. The
// reduction's shared-memory tree runs with blocks of 32 (the GPU's are 256; any power of two).
void run_template_on_host(const codegen::TemplateLaunch& launch) {
  const std::string& name = launch.kernel.name;
  const KernelLibrary lib(cuda::template_source(launch.kernel) + "extern \"C\" void run_" + name +
                          "(const void* p) { " + name + "(*static_cast<const _accel_args*>(p)); }\n");
  ASSERT_EQ(lib.error(), "");
  const auto entry = reinterpret_cast<void (*)(const void*)>(lib.symbol("run_" + name));
  simt::launch(kGrid, kBlock, [&] { entry(launch.args.data()); });
}

TEST(CudaKernelsOnHost, elementwise_templates_match_the_cpu) {
  ElementwiseKernel diff("T x, T y", "T z", "z = (x - y) * (x - y) + i", "squared_diff");
  Array a = doubles({6, 5}, 1, 11);
  Array at = Array::view_of(a, {5, 6}, {1, 5}, 0);  // transposed
  Array row = doubles({6}, 1, 12);
  Array buffer = zeros({5, 12}, float64);
  Array out = Array::view_of(buffer, {5, 6}, {12, 2}, 1);  // every other column
  run_template_on_host(diff.plan({at, row, out}).launch);
  expect_same(out, diff({at, row})[0], 0, "squared_diff");
  ElementwiseKernel rev("raw T x", "T y", "y = x[_ind.size() - i - 1] * 2", "reverse");
  Array x = doubles({70}, 1, 13);
  Array y = empty({70}, float64);
  run_template_on_host(rev.plan({x, y}).launch);
  expect_same(y, rev({x, empty({70}, float64)})[0], 0, "reverse");
}

TEST(CudaKernelsOnHost, reduction_templates_match_the_cpu) {
  ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  Array a = doubles({7, 300}, 1, 14);
  for (const auto& [axis, keep] : {std::pair<ReduceAxes, bool>{ReduceAxes(1), false},
                                  {ReduceAxes(0), true}, {ReduceAxes(), false}}) {
    ReductionKernel::Plan plan = l2.plan({a}, axis, keep);
    run_template_on_host(plan.launch);
    expect_same(plan.operands[1], l2({a}, axis, keep)[0], 1e-13, "l2norm");
  }
  ReductionKernel dot("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rowdot");
  Array m = Array::view_of(doubles({40, 9}, 1, 15), {9, 40}, {1, 9}, 0);  // transposed
  Array v = doubles({40}, 1, 16);
  ReductionKernel::Plan plan = dot.plan({m, v}, ReduceAxes(1));
  run_template_on_host(plan.launch);
  expect_same(plan.operands[2], dot({m, v}, ReduceAxes(1))[0], 1e-13, "rowdot");
  ReductionKernel csum("complex64 x", "complex64 y", "x", "a + b", "y = a", "0", "csum");
  Array c = astype(doubles({3, 50}, 1, 17), complex64);
  plan = csum.plan({c}, ReduceAxes(1));
  run_template_on_host(plan.launch);
  expect_same(plan.operands[1], csum({c}, ReduceAxes(1))[0], 1e-5, "complex sum");
  Array nothing = zeros({4, 0}, float64);  // no element to reduce: the identity, post-mapped
  plan = l2.plan({nothing}, ReduceAxes(1));
  run_template_on_host(plan.launch);
  expect_same(plan.operands[1], zeros({4}, float64), 0, "empty");
}

}  // namespace
}  // namespace accel
