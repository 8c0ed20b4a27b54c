// CUDA reductions, scans, nonzero and sorts without a GPU: NVRTC checks, for sm_90, every kernel
// instantiation the backend can ask for (every op x input dtype x output dtype it allows), a
// few translation units per family, through its front end (-fdevice-syntax-only: every template
// instantiated and type-checked, in seconds); and compiles every kernel template to a CUBIN
// (code generation, ptxas, shared memory and register limits) for the op of largest state and a
// few typical ones (a full CUBIN of all instantiations takes minutes: ACCEL_TEST_ALL_CUBINS=1).
// Then the host-side planning (axis order and merging, one or two passes, grids) against
// hand-worked cases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <set>
#include <tuple>

#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/fold_at.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/reduce_kernels.h"
#include "accel/backend/cuda/reduce_plan.h"
#include "accel/backend/cuda/sort_kernels.h"
#include "accel/runtime/errors.h"
#include "ptxas_resources.h"

namespace cu = accel::cuda;
using accel::Dtype;
using accel::ReduceOp;
using accel::ScanOp;
namespace k = accel::kernels;

namespace {

std::vector<Dtype> all_dtypes() {
  std::vector<Dtype> all;
  for (int d = 0; d < accel::kNumDtypes; ++d) all.push_back(static_cast<Dtype>(d));
  return all;
}

constexpr ReduceOp kReduceOps[] = {ReduceOp::sum,    ReduceOp::prod,  ReduceOp::min,
                                   ReduceOp::max,    ReduceOp::any,   ReduceOp::all,
                                   ReduceOp::argmin, ReduceOp::argmax};
const char* kReduceNames[] = {"sum", "prod", "min", "max", "any", "all", "argmin", "argmax"};

// One instantiation request: what it is (for messages) and its kernels.
struct Request {
  std::string what;
  std::vector<std::string> names;
};

bool all_cubins() {
  const char* v = std::getenv("ACCEL_TEST_ALL_CUBINS");
  return v && std::string(v) == "1";
}

void compile(const std::vector<std::string>& names, const std::string& program, bool cubin) {
  cu::CompileOptions o;
  o.arch = "sm_90";
  o.use_cache = false;
  o.options = cu::reduction_options();
  // A CUBIN is checked for spills and register-limited occupancy at the launch block size.
  o.options.push_back(cubin ? "--ptxas-options=-v" : "-fdevice-syntax-only");
  o.name_expressions = names;
  o.program_name = program;
  auto m = cu::compile(cu::reduction_source(), o);
  ASSERT_TRUE(m->cubin);
  for (const auto& n : names) EXPECT_EQ(m->lowered_names.count(n), 1u) << n;
  if (!cubin) return;
  const auto kernels = ptxas::parse(m->log);
  EXPECT_GE(kernels.size(), names.size()) << m->log;
  for (const auto& p : ptxas::problems(kernels, accel::kernels::kThreads, cu::reduction_source()))
    ADD_FAILURE() << program << ": " << p;
  for (const auto& k : kernels)
    std::cout << "  " << k.name << ": " << k.registers << " registers, " << k.stack_bytes
              << " bytes stack, " << k.shared_bytes << " bytes shared\n";
}

// Compiles all requests in one translation unit; on failure compiles each alone, so the message
// names the op and dtypes that fail.
void compile_batch(const std::vector<Request>& requests, const std::string& program,
                   bool cubin = all_cubins()) {
  std::set<std::string> unique;
  for (const auto& r : requests) unique.insert(r.names.begin(), r.names.end());
  try {
    auto t0 = std::chrono::steady_clock::now();
    compile({unique.begin(), unique.end()}, program, cubin);
    std::cout << "  " << program << ": " << requests.size() << " (op, dtypes) requests, "
              << unique.size() << " distinct kernels, "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
              << " s\n";
    return;
  } catch (const accel::CompileError&) {
  }
  for (const auto& r : requests) {
    try {
      compile(r.names, program, cubin);
    } catch (const accel::CompileError& e) {
      ADD_FAILURE() << r.what << " does not compile:\n" << e.what();
    }
  }
}

class CudaReduceCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = cu::nvrtc_unavailable_reason();
    ASSERT_TRUE(why.empty()) << why;
  }
};

}  // namespace

TEST_F(CudaReduceCompile, every_reduce_instantiation_compiles_for_sm_90) {
  for (int i = 0; i < 8; ++i) {
    const ReduceOp op = kReduceOps[i];
    std::vector<Request> requests;
    for (Dtype in : all_dtypes())
      for (Dtype out : cu::reduce_out_dtypes(op, in)) {
        auto n = cu::reduce_kernel_names(op, in, out);
        requests.push_back({std::string(kReduceNames[i]) + " of " + accel::dtype_name(in) +
                                " into " + accel::dtype_name(out),
                            {n.rows, n.columns, n.final_rows}});
      }
    compile_batch(requests, std::string("reduce_") + kReduceNames[i] + ".cu");
  }
}

TEST_F(CudaReduceCompile, every_scan_instantiation_compiles_for_sm_90) {
  for (ScanOp op : {ScanOp::sum, ScanOp::prod}) {
    std::vector<Request> requests;
    for (Dtype in : all_dtypes())
      for (Dtype out : all_dtypes()) {
        auto n = cu::scan_kernel_names(op, in, out);
        requests.push_back({std::string(op == ScanOp::sum ? "cumulative_sum" : "cumulative_prod") +
                                " of " + accel::dtype_name(in) + " into " + accel::dtype_name(out),
                            {n.serial, n.block_rows, n.tiles, n.total_rows, n.total_columns,
                             n.carry_serial, n.carry_block_rows}});
      }
    compile_batch(requests, op == ScanOp::sum ? "scan_sum.cu" : "scan_prod.cu");
  }
}

TEST_F(CudaReduceCompile, every_nonzero_instantiation_compiles_for_sm_90) {
  std::vector<Request> requests;
  for (Dtype dt : all_dtypes()) {
    auto n = cu::nonzero_kernel_names(dt);
    requests.push_back({std::string("nonzero of ") + accel::dtype_name(dt), {n.count, n.write}});
  }
  compile_batch(requests, "nonzero.cu");
}

TEST_F(CudaReduceCompile, every_sort_instantiation_compiles_for_sm_90) {
  std::vector<Request> requests;
  for (Dtype dt : all_dtypes()) {
    auto n = cu::sort_kernel_names(dt);
    requests.push_back({std::string("sort / searchsorted of ") + accel::dtype_name(dt),
                        {n.keys, n.write, n.search, cu::kSortSegmentKeys, cu::kSortCount,
                         cu::kSortScanCounts, cu::kSortScatter}});
  }
  requests.push_back({"interp", {cu::kInterpValues}});
  compile_batch(requests, "sort.cu");
}

// interp's product is rounded by itself, as in NumPy's loop: NVRTC contracts a * b + c into a
// fused multiply-add unless told not to, which changes the last bit of interpolated values.
TEST_F(CudaReduceCompile, interp_kernel_has_no_fused_multiply_add) {
  cu::CompileOptions o;
  o.arch = "compute_90";  // PTX text, to read
  o.use_cache = false;
  o.options = cu::reduction_options();
  o.name_expressions = {cu::kInterpValues};
  o.program_name = "interp.cu";
  auto m = cu::compile(cu::reduction_source(), o);
  ASSERT_FALSE(m->cubin);
  const std::string& symbol = m->lowered_names.at(cu::kInterpValues);
  const size_t begin = m->image.find(".entry " + symbol);
  ASSERT_NE(begin, std::string::npos) << symbol;
  const size_t end = m->image.find(".entry ", begin + 1);
  const std::string body = m->image.substr(begin, end == std::string::npos ? end : end - begin);
  EXPECT_NE(body.find("mul.rn.f64"), std::string::npos) << body;
  EXPECT_NE(body.find("div.rn.f64"), std::string::npos) << body;
  EXPECT_EQ(body.find("fma.rn.f64"), std::string::npos) << body;
}

// ufunc_at's fold and reduceat's segmented fold: every binary op of the registry on a dtype it
// keeps, for float64, int32, float16 (InFloat) and complex64; add on every dtype.
TEST_F(CudaReduceCompile, every_fold_at_functor_compiles_for_sm_90) {
  std::vector<Request> requests;
  auto request = [&](accel::OpId op, Dtype dt) {
    if (accel::op_info(op).arity != 2) return;
    try {
      const accel::OpTypes t = accel::resolve_op_types(op, dt);
      if (t.compute != dt || t.out != dt) return;
    } catch (const accel::DTypeError&) {
      return;  // the op does not take dt
    }
    requests.push_back({std::string("fold_at of ") + accel::op_name(op) + " on " + accel::dtype_name(dt),
                        {cu::fold_at_kernel_name(op, dt), cu::fold_segments_kernel_name(op, dt)}});
  };
  for (int i = 0; i < accel::kNumOps; ++i)
    for (Dtype dt : {Dtype::float64, Dtype::int32, Dtype::float16, Dtype::complex64})
      request(static_cast<accel::OpId>(i), dt);
  for (Dtype dt : all_dtypes()) request(accel::OpId::add, dt);
  compile_batch(requests, "fold_at.cu");
}

// Code generation for every kernel template, with the states that stress it most: the widest
// (argmax of complex128: 24 bytes, a 256-entry shared tree), complex sums (scan tiles of 16-byte
// states: 36 KiB of shared memory), wrapping integer products, bools, the any-dtype reader.
TEST_F(CudaReduceCompile, every_kernel_template_compiles_to_a_cubin_for_sm_90) {
  std::vector<Request> requests;
  const std::pair<ReduceOp, std::pair<Dtype, Dtype>> reduce_cases[] = {
      {ReduceOp::argmax, {Dtype::complex128, Dtype::int64}},
      {ReduceOp::any, {Dtype::complex128, Dtype::bool_}},
      {ReduceOp::sum, {Dtype::float32, Dtype::float32}},
      {ReduceOp::sum, {Dtype::float64, Dtype::int16}},  // AnyDtype
  };
  for (const auto& [op, dt] : reduce_cases) {
    auto n = cu::reduce_kernel_names(op, dt.first, dt.second);
    requests.push_back({n.rows, {n.rows, n.columns, n.final_rows}});
  }
  for (auto [op, in, out] : {std::tuple{ScanOp::sum, Dtype::complex128, Dtype::complex128},
                             std::tuple{ScanOp::prod, Dtype::int32, Dtype::int64}}) {
    auto n = cu::scan_kernel_names(op, in, out);
    requests.push_back({n.serial,
                        {n.serial, n.block_rows, n.tiles, n.total_rows, n.total_columns,
                         n.carry_serial, n.carry_block_rows}});
  }
  auto nz = cu::nonzero_kernel_names(Dtype::complex128);
  requests.push_back({nz.count, {nz.count, nz.write}});
  // The sort's shared kernels (16 KiB of digit counts per block) and its widest element.
  auto sn = cu::sort_kernel_names(Dtype::complex128);
  requests.push_back({sn.keys,
                      {sn.keys, sn.write, sn.search, cu::kSortSegmentKeys, cu::kSortCount,
                       cu::kSortScanCounts, cu::kSortScatter}});
  requests.push_back({cu::kInterpValues, {cu::kInterpValues}});
  // ufunc_at's and reduceat's folds, on the widest element and through InFloat.
  for (auto [op, dt] : {std::pair{accel::OpId::add, Dtype::complex128},
                        std::pair{accel::OpId::multiply, Dtype::float16}}) {
    const std::string f = cu::fold_at_kernel_name(op, dt);
    requests.push_back({f, {f, cu::fold_segments_kernel_name(op, dt)}});
  }
  compile_batch(requests, "reduce_templates.cu", true);
}

TEST(CudaReduceNames, pairs_an_op_does_not_take_raise_dtype_error) {
  EXPECT_THROW(cu::reduce_kernel_names(ReduceOp::min, Dtype::int8, Dtype::float32),
               accel::DTypeError);
  EXPECT_THROW(cu::reduce_kernel_names(ReduceOp::argmax, Dtype::float32, Dtype::int32),
               accel::DTypeError);
  EXPECT_THROW(cu::reduce_kernel_names(ReduceOp::any, Dtype::float32, Dtype::float32),
               accel::DTypeError);
  EXPECT_NO_THROW(cu::reduce_kernel_names(ReduceOp::sum, Dtype::int8, Dtype::complex64));
}

TEST(CudaReduceNames, second_passes_of_sum_share_one_kernel_per_accumulator) {
  auto a = cu::reduce_kernel_names(ReduceOp::sum, Dtype::int8, Dtype::int64);
  auto b = cu::reduce_kernel_names(ReduceOp::sum, Dtype::int32, Dtype::int64);
  EXPECT_EQ(a.final_rows, b.final_rows);
  EXPECT_NE(a.rows, b.rows);
  EXPECT_EQ(a.rows,
            "accel::kernels::reduce_rows<accel::kernels::SumProdOp<int8_t, int64_t, true> >");
}

// ---------------------------------------------------------------- planning

namespace {

constexpr int64_t kH200 = 132 * 2048;  // threads that fill an H200

cu::ReduceDims dims_of(const accel::Shape& shape, const std::vector<int>& axes, bool arg = false) {
  accel::Strides in = accel::contiguous_strides(shape);
  accel::Shape out_shape;
  for (int d = 0, next = 0; d < static_cast<int>(shape.size()); ++d) {
    if (next < static_cast<int>(axes.size()) && axes[next] == d)
      ++next;
    else
      out_shape.push_back(shape[d]);
  }
  return cu::reduce_dims(shape, in, axes, accel::contiguous_strides(out_shape), arg);
}

}  // namespace

TEST(CudaReducePlan, contiguous_axes_merge_and_size_one_axes_drop) {
  // (4, 1, 6, 5) over axes (2, 3): one kept dim of 4 (in stride 30), one reduced run of 30.
  auto d = dims_of({4, 1, 6, 5}, {2, 3});
  ASSERT_EQ(d.kept.size(), 1u);
  EXPECT_EQ(d.kept[0], (cu::ReduceDim{4, 30, 1}));
  ASSERT_EQ(d.reduced.size(), 1u);
  EXPECT_EQ(d.reduced[0], (cu::ReduceDim{30, 1, 0}));
  EXPECT_EQ(d.kept_count(), 4);
  EXPECT_EQ(d.reduced_count(), 30);
}

TEST(CudaReducePlan, reduced_axes_sort_by_stride_but_keep_order_for_arg_reductions) {
  // A transposed (3, 4) view: shape (4, 3), strides (1, 4). Reducing both axes sorts them into
  // one contiguous run of 12; argmin keeps the logical order (positions count in it).
  auto sorted = cu::reduce_dims({4, 3}, {1, 4}, {0, 1}, {}, false);
  ASSERT_EQ(sorted.reduced.size(), 1u);
  EXPECT_EQ(sorted.reduced[0], (cu::ReduceDim{12, 1, 0}));
  auto ordered = cu::reduce_dims({4, 3}, {1, 4}, {0, 1}, {}, true);
  ASSERT_EQ(ordered.reduced.size(), 2u);
  EXPECT_EQ(ordered.reduced[0], (cu::ReduceDim{4, 1, 0}));
  EXPECT_EQ(ordered.reduced[1], (cu::ReduceDim{3, 4, 0}));
}

TEST(CudaReducePlan, zero_sizes_mean_no_output_or_identity) {
  EXPECT_TRUE(dims_of({0, 5}, {1}).no_output);
  EXPECT_EQ(dims_of({0, 5}, {1}).kept_count(), 0);
  auto d = dims_of({5, 0}, {1});
  EXPECT_TRUE(d.reduced_empty);
  EXPECT_EQ(d.reduced_count(), 0);
  auto p = cu::plan_reduce(d, kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::columns);  // a thread per output writes the identity
  EXPECT_FALSE(p.two_pass());
  EXPECT_EQ(p.params.chunk, 1);
}

TEST(CudaReducePlan, full_sum_of_1e8_splits_over_the_device_then_combines) {
  auto p = cu::plan_reduce(dims_of({100000000}, {0}), kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::rows);
  EXPECT_EQ(p.params.group, k::kThreads);  // one output: a whole block per chunk
  // 1 block of 256 threads wants 132 * 2048 / 256 = 1056 chunks.
  EXPECT_EQ(p.params.splits, 1056);
  EXPECT_EQ(p.params.chunk % 32, 0);
  EXPECT_GE(p.params.splits * p.params.chunk, 100000000);
  EXPECT_LT((p.params.splits - 1) * p.params.chunk, 100000000);
  EXPECT_EQ(p.grid.x, 1u);
  EXPECT_EQ(p.grid.y, 1056u);
  ASSERT_TRUE(p.two_pass());
  EXPECT_EQ(p.final_params.red_count, 1056);
  EXPECT_EQ(p.final_params.splits, 1);
  EXPECT_EQ(p.final_params.group, k::kThreads);
  EXPECT_EQ(p.final_grid.x, 1u);
  EXPECT_EQ(p.partial_bytes(), 1056u * k::kMaxStateBytes);
}

TEST(CudaReducePlan, rows_of_a_matrix_get_a_warp_each) {
  // (10000, 10000) over axis 1: 10000 outputs x 32 threads fill the device; 8 per block.
  auto p = cu::plan_reduce(dims_of({10000, 10000}, {1}), kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::rows);
  EXPECT_EQ(p.params.group, 32);
  EXPECT_EQ(p.grid.x, 1250u);
  EXPECT_FALSE(p.two_pass());
  EXPECT_EQ(p.params.chunk, 10000);
}

TEST(CudaReducePlan, columns_of_a_matrix_get_a_thread_each_and_split_the_rows) {
  // (10000, 10000) over axis 0: 40 blocks of 256 outputs want 132 * 2048 / 10240 -> 27 chunks.
  auto p = cu::plan_reduce(dims_of({10000, 10000}, {0}), kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::columns);
  EXPECT_EQ(p.grid.x, 40u);
  EXPECT_EQ(p.params.chunk, 384);  // ceil(10000 / 27) = 371, rounded up to whole warps
  EXPECT_EQ(p.params.splits, 27);
  EXPECT_EQ(p.grid.y, 27u);
  ASSERT_TRUE(p.two_pass());
  // The second pass reads partial[k * 27 + s]: kept stride 27, reduced stride 1.
  EXPECT_EQ(p.final_params.kept_in[0], 27);
  EXPECT_EQ(p.final_params.kept_out[0], 1);
  EXPECT_EQ(p.final_params.red_in[0], 1);
  EXPECT_EQ(p.final_params.red_count, 27);
  EXPECT_EQ(p.final_params.group, 32);
  EXPECT_EQ(p.final_grid.x, 1250u);
}

TEST(CudaReducePlan, tiny_reductions_run_a_thread_per_output) {
  auto p = cu::plan_reduce(dims_of({1000, 3}, {1}), kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::columns);
  EXPECT_EQ(p.grid.x, 4u);
  EXPECT_FALSE(p.two_pass());
}

TEST(CudaReducePlan, few_outputs_over_a_slow_axis_still_use_groups) {
  // (1e6, 2) over axis 0: two outputs are too few for a thread each.
  auto p = cu::plan_reduce(dims_of({1000000, 2}, {0}), kH200);
  EXPECT_EQ(p.kernel, cu::ReduceKernel::rows);
  EXPECT_EQ(p.params.group, k::kThreads);
  EXPECT_GT(p.params.splits, 1);
}

TEST(CudaReducePlan, too_many_unmergeable_dims_raise_value_error) {
  accel::Shape shape(30, 2);
  accel::Strides strides(30);
  for (int d = 0; d < 30; ++d) strides[d] = int64_t(1) << (2 * (30 - d));  // nothing merges
  auto d =
      cu::reduce_dims(shape, strides, {29}, accel::contiguous_strides(accel::Shape(29, 2)), false);
  EXPECT_THROW(cu::plan_reduce(d, kH200), accel::ValueError);
}

TEST(CudaScanPlan, short_rows_scan_a_thread_each) {
  auto p = cu::plan_scan({1000, 10}, {10, 1}, {10, 1}, 1, kH200);
  EXPECT_EQ(p.kernel, cu::ScanKernel::serial);
  EXPECT_EQ(p.params.tiles, 1);
  EXPECT_EQ(p.grid.x, 4u);
  EXPECT_EQ(p.params.rows, 1000);
  EXPECT_EQ(p.params.len, 10);
}

TEST(CudaScanPlan, moderate_rows_along_the_fastest_axis_scan_a_block_each) {
  auto p = cu::plan_scan({3000, 1000}, {1000, 1}, {1000, 1}, 1, kH200);
  EXPECT_EQ(p.kernel, cu::ScanKernel::block_rows);
  EXPECT_EQ(p.grid.x, 3000u);
  EXPECT_EQ(p.params.tiles, 1);
}

TEST(CudaScanPlan, one_long_row_scans_chunks_of_tiles_at_once) {
  // 2 * 132 * 2048 / 256 = 2112 chunks wanted: ceil(1e8 / 2112) = 47349 elements, rounded up to
  // whole tiles (24 x 2048 = 49152); 2035 chunks.
  auto p = cu::plan_scan({100000000}, {1}, {1}, 0, kH200);
  EXPECT_EQ(p.kernel, cu::ScanKernel::tiles);
  EXPECT_EQ(p.params.chunk, 24 * k::kScanTile);
  EXPECT_EQ(p.params.tiles, 2035);
  EXPECT_EQ(p.grid.x, 2035u);
  EXPECT_EQ(p.grid.y, 1u);
  EXPECT_EQ(p.total_kernel, cu::ReduceKernel::rows);
  EXPECT_EQ(p.total_params.group, k::kThreads);
  EXPECT_EQ(p.total_params.splits, 2035);
  EXPECT_EQ(p.total_params.chunk, 24 * k::kScanTile);
  EXPECT_EQ(p.total_grid.y, 2035u);
  EXPECT_EQ(p.carry_kernel, cu::ScanKernel::block_rows);
  EXPECT_EQ(p.carry_params.len, 2035);
  EXPECT_EQ(p.carry_params.in_stride[0], 2035);
}

TEST(CudaScanPlan, few_columns_along_a_slow_axis_cut_rows_into_serial_tiles) {
  // cumsum over axis 0 of (100000, 64): 64 columns scan serially, each cut into tiles so the
  // device is busy; the tiles' totals come from a thread-per-output reduction.
  auto p = cu::plan_scan({100000, 64}, {64, 1}, {64, 1}, 0, kH200);
  EXPECT_EQ(p.kernel, cu::ScanKernel::serial);
  EXPECT_EQ(p.params.rows, 64);
  // min(ceil(270336 / 64) = 4224, 100000 / 64 = 1562) tiles of ceil(100000 / 1562) = 65.
  EXPECT_EQ(p.params.chunk, 65);
  EXPECT_EQ(p.params.tiles, 1539);
  EXPECT_EQ(p.total_kernel, cu::ReduceKernel::columns);
  EXPECT_EQ(p.total_params.chunk, 65);
  EXPECT_EQ(p.total_params.kept_in[0], 1);
  EXPECT_EQ(p.total_params.red_in[0], 64);
  EXPECT_EQ(p.grid.x, 1u);
  EXPECT_EQ(p.grid.y, 1539u);
}

TEST(CudaScanPlan, empty_scans_do_nothing) {
  EXPECT_TRUE(cu::plan_scan({0, 5}, {5, 1}, {5, 1}, 1, kH200).empty());
  EXPECT_TRUE(cu::plan_scan({5, 0}, {0, 1}, {0, 1}, 1, kH200).empty());
}

TEST(CudaNonzeroPlan, chunks_are_whole_blocks_and_cover_everything) {
  auto p = cu::plan_nonzero({1000, 1000}, {1000, 1}, kH200);
  EXPECT_EQ(p.params.total, 1000000);
  EXPECT_EQ(p.params.chunk % k::kThreads, 0);
  EXPECT_EQ(p.grid.x, (1000000 + p.params.chunk - 1) / p.params.chunk);
  EXPECT_LE(p.grid.x, 1056u);
  auto scalar = cu::plan_nonzero({}, {}, kH200);
  EXPECT_EQ(scalar.params.total, 1);
  EXPECT_EQ(scalar.grid.x, 1u);
}
