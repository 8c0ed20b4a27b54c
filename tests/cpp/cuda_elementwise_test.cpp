// The CUDA backend's elementwise kernels without a GPU: every kernel the backend may ask for
// (each op of ops.def in each dtype it takes, each cast pair, in the contiguous, scalar and
// strided layouts, and arange) compiles with NVRTC for sm_90; and the host side of a launch
// (simplified loop shapes, operand layouts, the packed args struct, grid sizes, launches split
// past 8 axes) addresses exactly the elements the arrays hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/elementwise_kernels.h"
#include "accel/backend/cuda/elementwise_layout.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/codegen/emit.h"
#include "accel/core/shape.h"
#include "ptxas_resources.h"

namespace accel::cuda {
namespace {

using ir::Layout;

// ---------------------------------------------------------------- layouts (host only)

Strides bytes(Strides s, int64_t item) {
  for (int64_t& x : s) x *= item;
  return s;
}

TEST(CudaElementwiseLayout, contiguous_operands_merge_into_one_axis) {
  LoopLayout l = simplify_layout({4, 5, 6}, {bytes({30, 6, 1}, 4), bytes({30, 6, 1}, 8)});
  EXPECT_EQ(l.shape, Shape({120}));
  EXPECT_EQ(l.strides[0], Strides({4}));
  EXPECT_EQ(l.strides[1], Strides({8}));
  EXPECT_EQ(input_layout_of(l, 0, 4), Layout::contiguous);
  EXPECT_EQ(output_layout_of(l, 1, 8), Layout::contiguous);
}

TEST(CudaElementwiseLayout, length_one_axes_are_dropped_whatever_their_stride) {
  LoopLayout l = simplify_layout({1, 3, 1, 2}, {{999, 8, -5, 4}, {0, 0, 7, 0}});
  EXPECT_EQ(l.shape, Shape({6}));
  EXPECT_EQ(input_layout_of(l, 0, 4), Layout::contiguous);
  EXPECT_EQ(input_layout_of(l, 1, 4), Layout::scalar);
}

TEST(CudaElementwiseLayout, transposed_and_broadcast_operands_keep_their_axes) {
  // out (3, 4) contiguous; a transposed view; a row broadcast down the columns.
  LoopLayout l = simplify_layout({3, 4}, {bytes({1, 3}, 4), bytes({0, 1}, 4), bytes({4, 1}, 4)});
  EXPECT_EQ(l.shape, Shape({3, 4}));
  EXPECT_EQ(input_layout_of(l, 0, 4), Layout::strided);
  EXPECT_EQ(input_layout_of(l, 1, 4), Layout::strided);
  EXPECT_EQ(output_layout_of(l, 2, 4), Layout::contiguous);
}

TEST(CudaElementwiseLayout, sliced_rows_merge_only_where_every_operand_allows) {
  // x[:, :4] of a (5, 8) array beside a contiguous (5, 4) output: the row gap breaks the merge.
  LoopLayout l = simplify_layout({5, 4}, {bytes({8, 1}, 8), bytes({4, 1}, 8)});
  EXPECT_EQ(l.shape, Shape({5, 4}));
  // x[:, ::2] of the same array steps evenly through memory: one axis of stride 2.
  l = simplify_layout({5, 4}, {bytes({8, 2}, 8), bytes({4, 1}, 8)});
  EXPECT_EQ(l.shape, Shape({20}));
  EXPECT_EQ(l.strides[0], Strides({16}));
  EXPECT_EQ(input_layout_of(l, 0, 8), Layout::strided);
  // x[1:3] of a (4, 6) array: rows are whole, so it is one contiguous run.
  l = simplify_layout({2, 6}, {bytes({6, 1}, 8), bytes({6, 1}, 8)});
  EXPECT_EQ(l.shape, Shape({12}));
}

TEST(CudaElementwiseLayout, zero_d_is_one_element_and_empty_is_none) {
  LoopLayout l = simplify_layout({}, {{}, {}});
  EXPECT_EQ(l.size(), 1);
  EXPECT_EQ(l.shape.size(), 0u);
  EXPECT_EQ(input_layout_of(l, 0, 4), Layout::scalar);
  EXPECT_EQ(output_layout_of(l, 1, 4), Layout::contiguous);
  EXPECT_EQ(simplify_layout({3, 0, 2}, {bytes({0, 2, 1}, 4)}).size(), 0);
}

TEST(CudaElementwiseLayout, grid_is_one_thread_per_element_up_to_eight_blocks_per_sm) {
  EXPECT_EQ(grid_blocks(0, 132), 1u);
  EXPECT_EQ(grid_blocks(1, 132), 1u);
  EXPECT_EQ(grid_blocks(256, 132), 1u);
  EXPECT_EQ(grid_blocks(257, 132), 2u);
  EXPECT_EQ(grid_blocks(100'000, 132), 391u);
  EXPECT_EQ(grid_blocks(int64_t{1} << 40, 132), 132u * 8);
  EXPECT_EQ(grid_blocks(int64_t{1} << 40, 0), 8u);  // a device that reports no SMs still runs
}

// The dialect's struct for three operands, as the device compiler lays it out (LP64 both sides).
struct Args3 {
  char* ptr[3];
  int64_t n;
  int32_t ndim;
  int64_t shape[8];
  int64_t strides[3][8];
};

TEST(CudaElementwiseLayout, packed_args_match_the_struct_the_kernel_declares) {
  ASSERT_EQ(args_size(3), sizeof(Args3));
  char a = 0, b = 0, c = 0;
  LoopLayout l{{7, 5}, {{40, 8}, {0, 4}, {20, 4}}};
  std::string packed = pack_args({&a, &b, &c}, l);
  Args3 want{};
  want.ptr[0] = &a;
  want.ptr[1] = &b;
  want.ptr[2] = &c;
  want.n = 35;
  want.ndim = 2;
  want.shape[0] = 7;
  want.shape[1] = 5;
  want.strides[0][0] = 40;
  want.strides[0][1] = 8;
  want.strides[2][0] = 20;
  want.strides[2][1] = 4;
  want.strides[1][1] = 4;
  Args3 got{};
  ASSERT_EQ(packed.size(), sizeof got);
  std::memcpy(&got, packed.data(), sizeof got);
  EXPECT_EQ(std::memcmp(&got.ptr, &want.ptr, sizeof want.ptr), 0);
  EXPECT_EQ(got.n, want.n);
  EXPECT_EQ(got.ndim, want.ndim);
  EXPECT_EQ(std::memcmp(&got.shape, &want.shape, sizeof want.shape), 0);
  EXPECT_EQ(std::memcmp(&got.strides, &want.strides, sizeof want.strides), 0);
}

// What the generated kernel computes for operand k at flat element i: the dialect's offset
// function (codegen/dialect.cpp) over the packed struct, or i * itemsize when contiguous.
int64_t device_offset(const std::string& packed, size_t nops, size_t k, int64_t i, Layout layout,
                      int64_t item) {
  if (layout == Layout::contiguous) return i * item;
  if (layout == Layout::scalar) return 0;
  const char* p = packed.data();
  int32_t ndim = 0;
  std::memcpy(&ndim, p + 8 * nops + 8, 4);
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    int64_t extent = 0, stride = 0;
    std::memcpy(&extent, p + 8 * nops + 16 + 8 * d, 8);
    std::memcpy(&stride, p + 8 * nops + 16 + 64 * (1 + k) + 8 * d, 8);
    const int64_t q = i / extent;
    off += (i - q * extent) * stride;
    i = q;
  }
  return off;
}

// Byte offset of each element of `shape` in C order, for an operand of these byte strides.
std::vector<int64_t> host_offsets(const Shape& shape, const Strides& strides) {
  std::vector<int64_t> out;
  std::vector<int64_t> idx(shape.size(), 0);
  const int64_t n = shape_size(shape);
  for (int64_t e = 0; e < n; ++e) {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
    out.push_back(off);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return out;
}

// Every element each launch would touch, in launch order, against the arrays' own addressing.
void expect_launches_address(const Shape& shape, const std::vector<Strides>& byte_strides,
                             int64_t item, const std::string& label) {
  const size_t nops = byte_strides.size();
  LoopLayout l = simplify_layout(shape, byte_strides);
  std::vector<Layout> layouts;
  for (size_t k = 0; k < nops; ++k)
    layouts.push_back(k + 1 == nops ? output_layout_of(l, k, item) : input_layout_of(l, k, item));
  std::vector<std::vector<int64_t>> got(nops);
  int launches = 0;
  std::vector<char*> zero(nops, nullptr);
  for_each_launch(l, [&](const std::vector<int64_t>& offsets, const LoopLayout& part) {
    ++launches;
    ASSERT_LE(part.shape.size(), static_cast<size_t>(kMaxKernelDims)) << label;
    const std::string packed = pack_args(zero, part);
    for (int64_t i = 0; i < part.size(); ++i)
      for (size_t k = 0; k < nops; ++k)
        got[k].push_back(offsets[k] + device_offset(packed, nops, k, i, layouts[k], item));
  });
  EXPECT_GE(launches, 1) << label;
  for (size_t k = 0; k < nops; ++k)
    EXPECT_EQ(got[k], host_offsets(shape, byte_strides[k])) << label << ", operand " << k;
}

TEST(CudaElementwiseLayout, launches_address_every_element_of_random_views) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int ndim = static_cast<int>(rng() % 6);
    Shape shape;
    for (int d = 0; d < ndim; ++d) shape.push_back(static_cast<int64_t>(rng() % 4));
    const int64_t item = int64_t{1} << (rng() % 5);
    std::vector<Strides> ops;
    for (int k = 0; k < 3; ++k) {
      // A base array with room for slicing, viewed transposed, stepped, reversed or broadcast.
      Strides s = contiguous_strides(shape);
      for (int64_t& x : s) x *= 1 + static_cast<int64_t>(rng() % 2);
      if (ndim >= 2 && rng() % 3 == 0) std::swap(s[0], s[static_cast<size_t>(ndim - 1)]);
      for (int64_t& x : s) {
        if (rng() % 5 == 0) x = 0;
        if (rng() % 5 == 0) x = -x;
      }
      ops.push_back(k == 2 ? contiguous_strides(shape) : s);
    }
    for (Strides& s : ops) s = bytes(s, item);
    expect_launches_address(shape, ops, item, "trial " + std::to_string(trial) + " shape " +
                                                  shape_str(shape));
  }
}

TEST(CudaElementwiseLayout, more_than_eight_unmergeable_axes_split_into_launches) {
  // Eleven axes of length 2, every other one reversed: nothing merges.
  Shape shape(11, 2);
  Strides in = contiguous_strides(shape), out = contiguous_strides(shape);
  for (size_t d = 0; d < in.size(); d += 2) in[d] = -in[d];
  std::reverse(in.begin(), in.end());  // and the axes in the opposite order
  LoopLayout l = simplify_layout(shape, {bytes(in, 4), bytes(out, 4)});
  ASSERT_EQ(l.shape.size(), 11u);
  int launches = 0;
  for_each_launch(l, [&](const std::vector<int64_t>&, const LoopLayout& part) {
    ++launches;
    EXPECT_EQ(part.shape.size(), static_cast<size_t>(kMaxKernelDims));
  });
  EXPECT_EQ(launches, 8);  // 2 x 2 x 2 leading indices
  expect_launches_address(shape, {bytes(in, 4), bytes(out, 4)}, 4, "11-d");
}

// ---------------------------------------------------------------- every kernel compiles

struct Case {
  std::string label;  // "sin float32 strided"
  ir::KernelIR ir;
};

// The three layouts a launch may pick: all contiguous; the last input a scalar (a Python
// number, a 0-d array); every operand strided.
void add_layout_variants(std::vector<Case>& cases, const std::string& label, ir::KernelIR ir) {
  cases.push_back({label + " contiguous", ir});
  ir::KernelIR scalar = ir;
  scalar.inputs.back().layout = Layout::scalar;
  cases.push_back({label + " scalar", scalar});
  ir::KernelIR strided = ir;
  for (ir::Operand& o : strided.inputs) o.layout = Layout::strided;
  for (ir::Operand& o : strided.outputs) o.layout = Layout::strided;
  cases.push_back({label + " strided", strided});
}

std::vector<Case> every_backend_kernel() {
  std::vector<Case> cases;
  for (int o = 0; o < kNumOps; ++o) {
    const auto op = static_cast<OpId>(o);
    const OpInfo& info = op_info(op);
    for (int d = 0; d < kNumDtypes; ++d) {
      const auto dt = static_cast<Dtype>(d);
      if (!op_accepts(info.bools, info.domain, dt)) continue;
      add_layout_variants(cases, std::string(info.name) + " " + dtype_name(dt),
                          op_kernel_ir(op, dt, op_output_dtype(op, dt)));
    }
  }
  for (int a = 0; a < kNumDtypes; ++a)
    for (int b = 0; b < kNumDtypes; ++b) {
      const auto from = static_cast<Dtype>(a), to = static_cast<Dtype>(b);
      add_layout_variants(cases, std::string("cast ") + dtype_name(from) + " -> " + dtype_name(to),
                          cast_kernel_ir(from, to));
    }
  return cases;
}

// CUBIN for sm_90 (so ptxas checks the code too), as the backend compiles it but with
// --Ofast-compile=mid: the front end and code generation are the same, and the optimiser's
// extra passes would triple the time of this test.
std::shared_ptr<const CompiledModule> compile_for_sm90(const std::string& source,
                                                       const std::string& program) {
  CompileOptions opts;
  opts.arch = "sm_90";
  opts.options = generated_kernel_options();
  opts.options.push_back("--Ofast-compile=mid");
  opts.program_name = program;
  opts.use_cache = false;
  return compile(source, opts);
}

class CudaElementwiseKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = nvrtc_unavailable_reason();
    ASSERT_TRUE(why.empty()) << "NVRTC is required to check the generated CUDA kernels: " << why;
  }
};

// Compiles cases [first, last) as one translation unit; on failure compiles each on its own,
// exactly as the backend would, to name the ones that fail. Returns the failure messages.
std::vector<std::string> compile_batch(const std::vector<Case>& cases, size_t first, size_t last) {
  std::string source = codegen::emit_prelude(codegen::cuda_dialect());
  for (size_t i = first; i < last; ++i)
    source += "// " + cases[i].label + "\n" +
              codegen::emit_kernel_body(cases[i].ir, codegen::cuda_dialect());
  std::vector<std::string> failures;
  try {
    auto m = compile_for_sm90(source, "elementwise_batch_" + std::to_string(first) + ".cu");
    for (size_t i = first; i < last; ++i)
      if (m->image.find(cases[i].ir.name()) == std::string::npos)
        failures.push_back(cases[i].label + ": " + cases[i].ir.name() + " missing from the CUBIN");
    return failures;
  } catch (const std::exception& batch_error) {
    for (size_t i = first; i < last; ++i) {
      try {
        compile_for_sm90(codegen::emit_kernel(cases[i].ir, codegen::cuda_dialect()),
                         cases[i].ir.name() + ".cu");
      } catch (const std::exception& e) {
        failures.push_back(cases[i].label + " does not compile:\n" + e.what() + "\nIR:\n" +
                           cases[i].ir.str());
      }
    }
    if (failures.empty())
      failures.push_back("the batch from " + cases[first].label + " failed: " + batch_error.what());
    return failures;
  }
}

TEST_F(CudaElementwiseKernels, every_op_dtype_and_cast_pair_compiles_for_sm_90_in_every_layout) {
  const std::vector<Case> cases = every_backend_kernel();
  // ops x accepted dtypes x 3 layouts + 13 x 13 casts x 3 layouts.
  ASSERT_GT(cases.size(), 2000u);
  // Many kernels per translation unit (NVRTC's fixed cost per program), two programs at a time.
  constexpr size_t kBatch = 200;
  const auto start = std::chrono::steady_clock::now();
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  auto worker = [&] {
    for (size_t first; (first = next.fetch_add(kBatch)) < cases.size();) {
      std::vector<std::string> f = compile_batch(cases, first, std::min(cases.size(), first + kBatch));
      std::lock_guard<std::mutex> lock(mutex);
      failures.insert(failures.end(), f.begin(), f.end());
    }
  };
  std::thread other(worker);
  worker();
  other.join();
  for (const std::string& f : failures) ADD_FAILURE() << f;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ compiled ] %zu elementwise and cast kernels for sm_90 in %.1f s\n", cases.size(),
              seconds);
}

// Registers and spills as the backend compiles the kernels (full optimisation, unlike the test
// above): every op at its widest dtype and every cast from and to complex128, all in the strided
// layout, which carries the most index arithmetic. CI fails on a spill or on register use that
// caps occupancy below 50% at the launch block size (ptxas_resources.h).
TEST_F(CudaElementwiseKernels, widest_kernels_do_not_spill_and_keep_half_occupancy) {
  std::vector<Case> cases;
  std::set<std::string> names;
  auto strided = [&](const std::string& label, ir::KernelIR ir) {
    for (ir::Operand& o : ir.inputs) o.layout = Layout::strided;
    for (ir::Operand& o : ir.outputs) o.layout = Layout::strided;
    if (names.insert(ir.name()).second) cases.push_back({label, std::move(ir)});
  };
  for (int o = 0; o < kNumOps; ++o) {
    const auto op = static_cast<OpId>(o);
    const OpInfo& info = op_info(op);
    std::optional<Dtype> widest;  // the largest item, complex before float before integer
    for (int d = kNumDtypes - 1; d >= 0; --d) {
      const auto dt = static_cast<Dtype>(d);
      if (op_accepts(info.bools, info.domain, dt) && (!widest || itemsize(dt) > itemsize(*widest)))
        widest = dt;
    }
    if (widest)
      strided(std::string(info.name) + " " + dtype_name(*widest),
              op_kernel_ir(op, *widest, op_output_dtype(op, *widest)));
  }
  for (int d = 0; d < kNumDtypes; ++d) {
    const auto dt = static_cast<Dtype>(d);
    strided(std::string("cast complex128 -> ") + dtype_name(dt), cast_kernel_ir(Dtype::complex128, dt));
    strided(std::string("cast ") + dtype_name(dt) + " -> complex128", cast_kernel_ir(dt, Dtype::complex128));
  }
  std::string source = codegen::emit_prelude(codegen::cuda_dialect());
  for (const Case& c : cases)
    source += "// " + c.label + "\n" + codegen::emit_kernel_body(c.ir, codegen::cuda_dialect());
  CompileOptions opts;
  opts.arch = "sm_90";
  opts.options = generated_kernel_options();
  opts.options.push_back("--ptxas-options=-v");
  opts.program_name = "elementwise_resources.cu";
  opts.use_cache = false;
  const auto start = std::chrono::steady_clock::now();
  auto m = compile(source, opts);
  const auto kernels = ptxas::parse(m->log);
  EXPECT_EQ(kernels.size(), cases.size()) << m->log;
  for (const auto& p : ptxas::problems(kernels, kElementwiseBlock, source)) ADD_FAILURE() << p;
  int most = 0;
  for (const auto& k : kernels) most = std::max(most, k.registers);
  std::printf("[ ptxas ] %zu widest elementwise kernels: at most %d registers, in %.1f s\n",
              kernels.size(), most,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

TEST_F(CudaElementwiseKernels, arange_compiles_for_every_dtype_but_bool) {
  CompileOptions opts;
  opts.arch = "sm_90";
  opts.options = generated_kernel_options();
  opts.name_expressions = arange_names();
  opts.use_cache = false;
  opts.options.push_back("--ptxas-options=-v");
  auto named = compile(arange_source(), opts);
  for (const auto& p : ptxas::problems(ptxas::parse(named->log), kElementwiseBlock, arange_source()))
    ADD_FAILURE() << p;
  EXPECT_EQ(named->lowered_names.size(), static_cast<size_t>(kNumDtypes - 1));
  for (const auto& [expr, lowered] : named->lowered_names)
    EXPECT_NE(named->image.find(lowered), std::string::npos) << expr;
}

TEST(CudaElementwiseIR, single_op_kernels_call_the_shared_functor_once) {
  // DESIGN.md "One op registry": the CUDA kernel of an op is its functor from scalar_ops.h.
  ir::KernelIR k = op_kernel_ir(OpId::hypot, Dtype::float32, Dtype::float32);
  const std::string body = codegen::emit_kernel_body(k, codegen::cuda_dialect());
  EXPECT_NE(body.find("accel::scalar::HypotOp::apply("), std::string::npos) << body;
  EXPECT_EQ(k.inputs.size(), 2u);
  // A result stored in another dtype is converted by the same convert<> as every cast.
  ir::KernelIR c = op_kernel_ir(OpId::less, Dtype::int16, Dtype::float64);
  EXPECT_EQ(c.instrs.back().kind, ir::InstrKind::cast);
  EXPECT_EQ(c.instrs.back().compute, Dtype::bool_);
  EXPECT_NE(codegen::emit_kernel_body(cast_kernel_ir(Dtype::complex64, Dtype::uint8),
                                      codegen::cuda_dialect())
                .find("accel::scalar::convert<uint8_t>("),
            std::string::npos);
}

}  // namespace
}  // namespace accel::cuda
