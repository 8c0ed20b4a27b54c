// accel::ElementwiseKernel and accel::ReductionKernel: parameter lists, placeholders and their
// errors, the launch plan, runs on the CPU (host compiler) against values computed here, and
// the CUDA source of the same calls compiled by NVRTC (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "accel/accel.h"
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/template_kernels.h"
#include "accel/kernels/template_launch.h"

using accel::Array;
using accel::Device;
using accel::Dtype;

namespace {

Array arange_f32(int64_t n, const accel::Shape& shape) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0f);
  return Array::from_vector(v, shape, Device::cpu());
}

}  // namespace

TEST(KernelParams, parses_types_placeholders_and_raw) {
  auto p = accel::parse_kernel_params("float32 x, T y,raw  int64 idx", "in_params", "k");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].name, "x");
  EXPECT_EQ(p[0].dtype, Dtype::float32);
  EXPECT_FALSE(p[1].dtype.has_value());
  EXPECT_EQ(p[1].type, "T");
  EXPECT_TRUE(p[2].raw);
  EXPECT_EQ(p[2].dtype, Dtype::int64);
  EXPECT_TRUE(accel::parse_kernel_params("  ", "in_params", "k").empty());
}

TEST(KernelParams, malformed_lists_raise_typed_errors) {
  EXPECT_THROW(accel::parse_kernel_params("float32", "in_params", "k"), accel::ValueError);
  EXPECT_THROW(accel::parse_kernel_params("float32 x y", "in_params", "k"), accel::ValueError);
  EXPECT_THROW(accel::parse_kernel_params("float17 x", "in_params", "k"), accel::DTypeError);
  EXPECT_THROW(accel::ElementwiseKernel("T x, T x", "T z", "z = x", "k"), accel::ValueError);
  EXPECT_THROW(accel::ElementwiseKernel("T i", "T z", "z = i", "k"), accel::ValueError);
  EXPECT_THROW(accel::ElementwiseKernel("T _x", "T z", "z = _x", "k"), accel::ValueError);
  EXPECT_THROW(accel::ElementwiseKernel("T x", "T z", "z = x", "not a name"), accel::ValueError);
  EXPECT_THROW(accel::ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "r"),
               accel::ValueError);
}

TEST(TemplateLaunch, merges_axes_and_classifies_layouts) {
  accel::codegen::TemplateKernel k;
  k.name = "k";
  k.operation = "z = x + y";
  k.params = {{"x", Dtype::float32}, {"y", Dtype::float32}, {"z", Dtype::float32, true}};
  std::vector<accel::TemplateOperand> ops(3);
  ops[0].strides = {16, 4};  // contiguous (2, 4)
  ops[1].strides = {0, 0};   // a broadcast scalar
  ops[2].strides = {4, 8};   // a transposed output
  auto launch = accel::plan_template_launch(k, ops, {2, 4}, {});
  ASSERT_TRUE(launch.has_value());
  EXPECT_EQ(launch->n, 8);
  EXPECT_EQ(launch->kernel.ndim, 2);
  EXPECT_EQ(launch->kernel.params[0].layout, accel::ir::Layout::contiguous);
  EXPECT_EQ(launch->kernel.params[1].layout, accel::ir::Layout::scalar);
  EXPECT_EQ(launch->kernel.params[2].layout, accel::ir::Layout::strided);
  EXPECT_EQ(launch->args.size(), accel::codegen::template_args_words(launch->kernel));
  ops[2].strides = {16, 4};  // now every operand steps alike: one axis of 8
  launch = accel::plan_template_launch(k, ops, {2, 4}, {});
  EXPECT_EQ(launch->kernel.ndim, 1);
  EXPECT_EQ(launch->kernel.params[2].layout, accel::ir::Layout::contiguous);
}

TEST(ElementwiseKernel, squared_diff_with_a_placeholder_broadcasts) {
  accel::ElementwiseKernel k("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  Array x = arange_f32(10, {2, 5});
  Array y = arange_f32(5, {5});
  Array z = k({x, y})[0];
  EXPECT_EQ(z.dtype(), Dtype::float32);
  EXPECT_EQ(z.shape(), (accel::Shape{2, 5}));
  std::vector<float> got = z.to_vector<float>();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(got[i], float((i - i % 5) * (i - i % 5))) << i;
  // A weak scalar takes the placeholder's dtype from the array.
  Array w = k({x, Array::scalar(2.0, true)})[0];
  EXPECT_EQ(w.dtype(), Dtype::float32);
  EXPECT_EQ(w.to_vector<float>()[9], 49.0f);
}

TEST(ElementwiseKernel, writes_into_a_given_strided_output) {
  accel::ElementwiseKernel k("float32 x", "float32 z", "z = x * 2 + i", "twice");
  Array x = arange_f32(6, {2, 3});
  Array out = accel::zeros({3, 2}, Dtype::float32, Device::cpu());
  Array view = accel::permute_dims(out, {1, 0});
  k({x, view});
  std::vector<float> got = out.to_vector<float>();  // out[j][i] = x[i][j] * 2 + (i * 3 + j)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(got[j * 2 + i], float((i * 3 + j) * 3)) << i << j;
}

TEST(ElementwiseKernel, raw_params_are_indexed_by_the_body) {
  accel::ElementwiseKernel k("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse");
  Array x = arange_f32(7, {7});
  Array y = accel::empty({7}, Dtype::float32, Device::cpu());
  k({x, y});
  std::vector<float> got = y.to_vector<float>();
  for (int i = 0; i < 7; ++i) EXPECT_EQ(got[i], float(6 - i));
  // Every array raw and no output given: size= says how long the loop is.
  accel::ElementwiseKernel fill("raw T x", "raw T y", "y[i] = x[i] + 1", "plus_one");
  EXPECT_THROW(fill({x}), accel::ValueError);
  Array out = accel::zeros({7}, Dtype::float32, Device::cpu());
  EXPECT_THROW(fill({x, out}), accel::ValueError);
  fill({x, out}, 7);
  EXPECT_EQ(out.to_vector<float>()[6], 7.0f);
}

TEST(ElementwiseKernel, argument_errors_are_typed) {
  accel::ElementwiseKernel k("T x, T y", "T z", "z = x + y", "add");
  Array f = arange_f32(4, {4});
  Array d = accel::astype(f, Dtype::float64);
  EXPECT_THROW(k({f, d}), accel::DTypeError);  // T bound to float32 and float64
  EXPECT_THROW(k({f}), accel::ValueError);     // an argument missing
  EXPECT_THROW(k({f, f, f, f}), accel::ValueError);
  EXPECT_THROW(k({f, arange_f32(3, {3})}), accel::ShapeError);
  accel::ElementwiseKernel untyped("T x", "U z", "z = x", "copy_to_u");
  EXPECT_THROW(untyped({f}), accel::DTypeError);  // nothing says what U is
  Array z64 = accel::zeros({4}, Dtype::float64, Device::cpu());
  untyped({f, z64});  // an output binds it
  EXPECT_EQ(z64.to_vector<double>()[3], 3.0);
  accel::ElementwiseKernel ints("int8 x", "int8 z", "z = x", "int8_copy");
  EXPECT_THROW(ints({Array::scalar(int64_t{300}, true)}, std::nullopt), accel::Error);
  EXPECT_THROW(ints({f}), accel::DTypeError);  // float32 -> int8 is not same_kind
}

TEST(ReductionKernel, l2_norm_over_an_axis_and_all_axes) {
  accel::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  Array x = arange_f32(10, {2, 5});
  Array rows = l2({x}, accel::ReduceAxes(1))[0];
  ASSERT_EQ(rows.shape(), (accel::Shape{2}));
  std::vector<float> got = rows.to_vector<float>();
  EXPECT_FLOAT_EQ(got[0], std::sqrt(0.f + 1 + 4 + 9 + 16));
  EXPECT_FLOAT_EQ(got[1], std::sqrt(25.f + 36 + 49 + 64 + 81));
  Array all = l2({x}, {}, true)[0];
  EXPECT_EQ(all.shape(), (accel::Shape{1, 1}));
  EXPECT_FLOAT_EQ(all.to_vector<float>()[0], std::sqrt(285.0f));
  // An empty reduction is the post-map of the identity.
  Array none = l2({accel::zeros({3, 0}, Dtype::float32, Device::cpu())}, accel::ReduceAxes(1))[0];
  EXPECT_EQ(none.to_vector<float>(), std::vector<float>(3, 0.0f));
}

TEST(ReductionKernel, long_reductions_split_over_threads_fold_in_order) {
  accel::ReductionKernel sum("int32 x", "int64 y", "x", "a + b", "y = a", "0", "isum");
  std::vector<int32_t> v(1 << 20);
  std::iota(v.begin(), v.end(), 0);
  Array x = Array::from_vector(v, {int64_t(v.size())}, Device::cpu());
  EXPECT_EQ(sum({x})[0].to_vector<int64_t>()[0], int64_t(v.size()) * (int64_t(v.size()) - 1) / 2);
}

// The CUDA dialect of the same calls, compiled by NVRTC for sm_90 without a GPU.
TEST(TemplateKernelsCuda, generated_sources_compile_with_nvrtc) {
  const std::string why = accel::cuda::nvrtc_unavailable_reason();
  ASSERT_TRUE(why.empty()) << why;
  Array x = arange_f32(10, {2, 5});
  Array t = accel::permute_dims(arange_f32(10, {5, 2}), {1, 0});
  accel::ElementwiseKernel diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  accel::ElementwiseKernel rev("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse");
  accel::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  accel::ElementwiseKernel cplx("complex64 x", "complex64 y", "y = x * x", "csquare");
  const std::vector<std::string> sources = {
      diff.source({x, Array::scalar(2.0, true)}, Device::cuda(0)),
      diff.source({x, t}, Device::cuda(0)),  // strided
      rev.source({x, accel::empty({2, 5}, Dtype::float32, Device::cpu())}, Device::cuda(0)),
      l2.source({x}, Device::cuda(0), accel::ReduceAxes(1)),
      cplx.source({accel::zeros({3}, Dtype::complex64, Device::cpu())}, Device::cuda(0)),
  };
  accel::codegen::TemplateKernel options_of;
  for (const std::string& src : sources) {
    accel::cuda::CompileOptions o;
    o.arch = "sm_90";
    o.use_cache = false;
    o.options = accel::cuda::template_options(options_of);
    auto m = accel::cuda::compile(src, o);
    EXPECT_TRUE(m->cubin) << src;
  }
}
