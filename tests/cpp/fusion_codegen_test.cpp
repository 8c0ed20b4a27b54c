// Generated kernel source: the CUDA dialect of a representative set of fused kernels compiles
// with NVRTC (no GPU needed), the host dialect compiles with the system compiler, and the
// source has the shape the dialect tables promise.
#include <gtest/gtest.h>

#include <complex>

#include "accel/accel.h"
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/codegen/emit.h"
#include "accel/ir/fuse.h"

namespace accel {
namespace {

// These tests are about pending nodes on small arrays: keep small ops lazy (by default they are
// computed at once, eval/eager.h).
const bool small_ops_lazy = [] {
  set_eager_small_enabled(false);
  return true;
}();


ir::KernelIR ir_of(const Array& y) {
  Array roots[] = {y};
  return ir::fuse_elementwise(roots).ir;
}

Array ones_of(const Shape& s, Dtype dt) {
  return astype(Array::from_vector(std::vector<double>(static_cast<size_t>(shape_size(s)), 1.5), s),
                dt)
      .eval();
}

// Fused kernels covering every kind of instruction, dtype family and layout.
std::vector<std::pair<std::string, ir::KernelIR>> representative_kernels() {
  Array f = ones_of({64}, float32), g = ones_of({64}, float32), d = ones_of({8, 8}, float64);
  Array i = ones_of({64}, int32), u = ones_of({64}, uint8), b = greater(f, g).eval();
  Array c = ones_of({64}, complex64), z = ones_of({64}, complex128);
  Array dt = Array::view_of(d, {8, 8}, {1, 8}, 0);
  Array row = ones_of({8}, float64);
  std::vector<std::pair<std::string, ir::KernelIR>> k;
  k.emplace_back("axpb", ir_of(2 * f * g + f - 1));
  k.emplace_back("trig", ir_of(sin(f) * sin(f) + cos(f) * cos(f) - exp(-g) * f));
  k.emplace_back("strided_broadcast", ir_of(tanh(dt) * row + log1p(abs(dt))));
  k.emplace_back("integers", ir_of(floor_divide(i, astype(u, int32)) +
                                   remainder(i, weak_scalar(7, i.device())) * (i << 2)));
  k.emplace_back("where_bool", ir_of(where(logical_and(b, less(f, weak_scalar(3.0f, f.device()))),
                                           f, astype(i, float32))));
  k.emplace_back("complex64", ir_of(exp(c) * c + sqrt(c) / (c + 1)));
  k.emplace_back("complex128_trig", ir_of(abs(sin(z) + atanh(z) * conj(z))));
  k.emplace_back("float64_special", ir_of(logaddexp(d, d * 2) + hypot(d, atan2(d, d)) + cbrt(d)));
  k.emplace_back("casts", ir_of(astype(astype(f, int16) + i, float64) *
                                maximum(astype(g, float64), weak_scalar(0.5, g.device()))));
  return k;
}

TEST(FusionCodegen, cuda_source_of_representative_kernels_compiles_with_nvrtc) {
  std::string why = cuda::nvrtc_unavailable_reason();
  ASSERT_TRUE(why.empty()) << "NVRTC is required to check generated CUDA source: " << why;
  for (const auto& [label, ir] : representative_kernels()) {
    std::string src = codegen::emit_kernel(ir, codegen::cuda_dialect());
    cuda::CompileOptions opts;
    opts.arch = "compute_90";
    opts.options = {"-default-device", "-std=c++17"};
    opts.program_name = label + ".cu";
    opts.use_cache = false;
    try {
      auto m = cuda::compile(src, opts);
      EXPECT_NE(m->image.find(".entry " + ir.name()), std::string::npos) << label;
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << ": " << e.what();
    }
  }
}

// y = x + s with s a kernel parameter (ir::Layout::by_value), for every dtype, plus a chain of
// two parameters of different dtypes cast in the kernel: what GPU arrays' Python numbers become.
std::vector<std::pair<std::string, ir::KernelIR>> by_value_kernels() {
  std::vector<std::pair<std::string, ir::KernelIR>> k;
  for (int d = 0; d < kNumDtypes; ++d) {
    const auto dt = static_cast<Dtype>(d);
    ir::KernelIR ir;
    ir.inputs = {{dt, ir::Layout::contiguous}, {dt, ir::Layout::by_value}};
    ir.instrs = {{ir::InstrKind::load, OpId::cast, dt, dt, {0, -1, -1}},
                 {ir::InstrKind::load, OpId::cast, dt, dt, {1, -1, -1}},
                 {ir::InstrKind::op, OpId::add, dt, dt, {0, 1, -1}}};
    ir.outputs = {{dt, ir::Layout::strided}};
    ir.results = {2};
    k.emplace_back(std::string("by_value_") + dtype_name(dt), ir);
  }
  Array f = ones_of({64}, float32);
  ir::KernelIR chain =
      ir_of(weak_scalar(2.5, f.device()) * f - weak_scalar(int64_t{3}, f.device()));
  for (ir::Operand& o : chain.inputs)
    if (o.layout == ir::Layout::scalar) o.layout = ir::Layout::by_value;
  k.emplace_back("by_value_chain", chain);
  return k;
}

TEST(FusionCodegen, cuda_kernels_with_by_value_operands_compile_for_sm_90) {
  std::string why = cuda::nvrtc_unavailable_reason();
  ASSERT_TRUE(why.empty()) << "NVRTC is required to check generated CUDA source: " << why;
  std::string src = codegen::emit_prelude(codegen::cuda_dialect());
  std::vector<std::string> names;
  for (const auto& [label, ir] : by_value_kernels()) {
    const std::string body = codegen::emit_kernel_body(ir, codegen::cuda_dialect());
    // The parameter follows the args struct, and the struct holds only operands in memory.
    const std::string type = codegen::c_type(ir.inputs.back().dtype);
    EXPECT_NE(body.find(", const " + type + " in"), std::string::npos) << body;
    size_t in_memory = ir.outputs.size();
    for (const ir::Operand& o : ir.inputs) in_memory += o.layout != ir::Layout::by_value;
    EXPECT_NE(body.find("char* ptr[" + std::to_string(in_memory) + "];"), std::string::npos)
        << label << "\n" << body;
    src += body;
    names.push_back(ir.name());
  }
  cuda::CompileOptions opts;
  opts.arch = "sm_90";  // CUBIN: ptxas checks the parameter list too
  opts.options = {"-default-device", "-std=c++17"};
  opts.program_name = "by_value.cu";
  opts.use_cache = false;
  try {
    auto m = cuda::compile(src, opts);
    EXPECT_FALSE(m->image.empty());
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
}

TEST(FusionCodegen, host_dialect_refuses_by_value_operands) {
  // The CPU reads Python numbers from host memory; nothing there makes a by-value operand.
  EXPECT_THROW(codegen::emit_kernel(by_value_kernels()[0].second, codegen::host_dialect()),
               CompileError);
}

TEST(FusionCodegen, host_source_calls_the_shared_functors) {
  Array f = ones_of({64}, float32);
  ir::KernelIR ir = ir_of(sin(f) * 2 + f);
  std::string body = codegen::emit_kernel_body(ir, codegen::host_dialect());
  EXPECT_NE(body.find("accel::scalar::SinOp::apply("), std::string::npos) << body;
  EXPECT_NE(body.find("accel::scalar::MultiplyOp::apply("), std::string::npos) << body;
  EXPECT_NE(body.find("extern \"C\" void " + ir.name()), std::string::npos) << body;
  std::string full = codegen::emit_kernel(ir, codegen::host_dialect());
  EXPECT_NE(full.find("struct AddOp"), std::string::npos);  // functors embedded, not included
}

TEST(FusionCodegen, host_dialect_gathers_strided_inputs_and_scatters_strided_outputs) {
  Array d = ones_of({8, 8}, float64);
  Array dt = Array::view_of(d, {8, 8}, {1, 8}, 0);
  ir::KernelIR ir = ir_of(dt * 2 + 1);
  ir.outputs[0].layout = ir::Layout::strided;  // as evaluate_into a view makes it
  std::string body = codegen::emit_kernel_body(ir, codegen::host_dialect());
  // Read once per element into a block value, before the ops; written through its step.
  EXPECT_NE(body.find("v0[j] = *reinterpret_cast<double*>(row[0] + (b0 + j) * step[0])"),
            std::string::npos)
      << body;
  EXPECT_LT(body.find("v0[j] ="), body.find("MultiplyOp::apply(v0[j]")) << body;
  const std::string out = std::to_string(ir.inputs.size());  // output 0, after the inputs
  EXPECT_NE(
      body.find("*reinterpret_cast<double*>(row[" + out + "] + (b0 + j) * step[" + out + "]) ="),
      std::string::npos)
      << body;
}

}  // namespace
}  // namespace accel

#include <unistd.h>

#include <filesystem>

#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/host_jit.h"

namespace accel {
namespace {

// Compiled host kernels give what the interpreter gives, for every family of dtypes.
TEST(FusionCodegen, host_kernels_compiled_by_the_system_compiler_match_the_interpreter) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("accel-jit-test-" + std::to_string(getpid()));
  setenv("ACCEL_CACHE_DIR", dir.c_str(), 1);
  Array f = ones_of({1000}, float32), i = astype(ones_of({1000}, float64) * 37, int32).eval();
  Array z = ones_of({1000}, complex128), g = sin(ones_of({1000}, float32) * 3).eval();
  // Strided operands: a transpose, broadcast rows and columns, a reversed axis, a stepped slice.
  Array m = reshape(sin(arange(2000, float32)), {40, 50}).eval(), h = astype(m, float16).eval();
  Array mt = Array::view_of(m, {50, 40}, {1, 50}, 0), col = Array::view_of(m, {40, 1}, {50, 0}, 3);
  Array rev = Array::view_of(m, {40, 50}, {-50, 1}, 39 * 50);
  Array step = Array::view_of(m, {20, 25}, {100, 2}, 1);
  std::vector<Array> cases = {
      mt * 2 + transpose(m) - 1,
      (m - col) * 2 + sin(rev),
      step * step - exp(step),
      Array::view_of(h, {50, 40}, {1, 50}, 0) * 3 + astype(mt, float16),
      2 * f * g + f - 1,
      sin(g) * sin(g) + cos(g) * cos(g) - exp(-f) * g,
      floor_divide(i, weak_scalar(5, i.device())) +
          remainder(i, weak_scalar(3, i.device())) * (i << 2),
      where(less(g, f), astype(i, float32), g * 2),
      exp(z) * z + sqrt(z),
  };
  for (const Array& y : cases) {
    Array roots[] = {y};
    ir::FusedRegion r = ir::fuse_elementwise(roots);
    ASSERT_TRUE(r.deferred.empty());
    std::vector<Array> a, b;
    for (const ir::Operand& o : r.ir.outputs) {
      a.push_back(Array::empty(r.shape, o.dtype));
      b.push_back(Array::empty(r.shape, o.dtype));
    }
    cpu::interpret_fused(r.ir, cpu::bind_fused(r.shape, r.inputs, a));
    cpu::HostKernel fn = cpu::compile_host_kernel(r.ir);
    ASSERT_NE(fn, nullptr);
    const cpu::FusedSpace space = cpu::bind_fused(r.shape, r.inputs, b);
    // Ranges that start and end inside rows, as the thread pool cuts them.
    const int64_t total = shape_size(r.shape);
    for (int64_t lo = 0; lo < total; lo += 777)
      cpu::for_each_row(space, lo, std::min(total, lo + 777),
                        [&](char* const* row, int64_t n) { fn(row, space.inner.data(), n); });
    if (is_complex(a[0].dtype())) {
      auto x = a[0].to_vector<std::complex<double>>(), w = b[0].to_vector<std::complex<double>>();
      for (size_t k = 0; k < x.size(); ++k)
        EXPECT_NEAR(std::abs(x[k] - w[k]), 0, 1e-12 * std::abs(x[k]));
    } else {
      auto x = a[0].to_vector<double>(), w = b[0].to_vector<double>();
      for (size_t k = 0; k < x.size(); ++k)
        EXPECT_NEAR(x[k], w[k], 1e-6 * std::max(1.0, std::abs(x[k])));
    }
  }
  EXPECT_GE(cpu::host_jit_stats().compiles, 1u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace accel

namespace accel {
namespace {

// The PTX of a kernel emitted in `d` (a copy of the CUDA dialect, perhaps changed).
std::string cuda_ptx(const ir::KernelIR& ir, const codegen::Dialect& d, const std::string& label) {
  cuda::CompileOptions opts;
  opts.arch = "compute_90";
  opts.options = {"-default-device", "-std=c++17"};
  opts.program_name = label + ".cu";
  opts.use_cache = false;
  return cuda::compile(codegen::emit_kernel(ir, d), opts)->image;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(FusionCodegen, cuda_kernels_take_sin_and_cos_of_one_float_from_one_sincos_call) {
  std::string why = cuda::nvrtc_unavailable_reason();
  ASSERT_TRUE(why.empty()) << "NVRTC is required to check generated CUDA source: " << why;
  Array f = ones_of({64}, float32), g = ones_of({64}, float32);
  struct Case {
    Array y;
    size_t sincos, sin;  // calls expected
  };
  // Either order; a sin of another value stays a sin; cos of another value pairs with nothing.
  for (const Case& c : {Case{sin(f) * 2 + cos(f), 1, 0}, Case{cos(f) * f - sin(f) + sin(g), 1, 1},
                        Case{sin(f) + cos(g), 0, 1}}) {
    ir::KernelIR ir = ir_of(c.y);
    const std::string body = codegen::emit_kernel_body(ir, codegen::cuda_dialect());
    EXPECT_EQ(count_of(body, "std::sincos("), c.sincos) << body;
    EXPECT_EQ(count_of(body, "SinOp::apply("), c.sin) << body;
    EXPECT_EQ(count_of(body, "CosOp::apply("), 1 - c.sincos) << body;
    if (!c.sincos) continue;
    // One range reduction instead of two: the PTX is shorter than with two calls.
    codegen::Dialect two_calls = codegen::cuda_dialect();
    two_calls.sincos = nullptr;
    EXPECT_LT(count_of(cuda_ptx(ir, codegen::cuda_dialect(), "sincos"), "\n"),
              count_of(cuda_ptx(ir, two_calls, "two_calls"), "\n"));
  }
  // float64 (see sincos_partners in emit.cpp) and float16 (each computed in float and rounded,
  // InFloat) keep two calls; the host dialect has no sincos.
  for (Dtype dt : {float64, float16}) {
    Array x = ones_of({64}, dt);
    EXPECT_EQ(count_of(codegen::emit_kernel_body(ir_of(sin(x) + cos(x)), codegen::cuda_dialect()),
                       "sincos"),
              0u)
        << dtype_name(dt);
  }
  EXPECT_EQ(count_of(codegen::emit_kernel_body(ir_of(sin(f) + cos(f)), codegen::host_dialect()),
                     "sincos"),
            0u);
}

}  // namespace
}  // namespace accel
