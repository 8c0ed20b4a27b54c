// The status line drawn while kernels compile (runtime/compile_status.h), into a recording sink.
#include "accel/runtime/compile_status.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace cs = accel::compile_status;

namespace {

struct Recorder {
  std::mutex mutex;
  std::string text;
  void operator()(const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex);
    text += s;
  }
  std::string get() {
    std::lock_guard<std::mutex> lock(mutex);
    return text;
  }
};

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

TEST(CompileStatus, ALongCompileDrawsItsLineAndClearsIt) {
  auto rec = std::make_shared<Recorder>();
  cs::enable_for_testing([rec](const std::string& s) { (*rec)(s); }, 0.05, 0.01);
  {
    cs::Scope s("k.cu", "the host compiler");
    sleep_ms(200);
  }
  const std::string out = rec->get();
  ASSERT_EQ(out.rfind("\rcompiling k.cu with the host compiler ... ", 0), 0u) << out;
  EXPECT_GE(std::count(out.begin(), out.end(), '\r'), 4) << "redrawn while it lasts";
  // Cleared at the end: blanks between two carriage returns.
  const size_t last = out.rfind('\r', out.size() - 2);
  EXPECT_EQ(out.back(), '\r');
  EXPECT_EQ(out.substr(last + 1, out.size() - last - 2).find_first_not_of(' '), std::string::npos);
  const std::string after = rec->get();
  sleep_ms(50);
  EXPECT_EQ(rec->get(), after) << "nothing drawn once no compile runs";
}

TEST(CompileStatus, AShortCompileDrawsNothing) {
  auto rec = std::make_shared<Recorder>();
  cs::enable_for_testing([rec](const std::string& s) { (*rec)(s); }, 5.0, 0.01);
  {
    cs::Scope s("k.cu", "NVRTC");  // a cache hit's length
    sleep_ms(20);
  }
  sleep_ms(30);
  EXPECT_EQ(rec->get(), "");
}

TEST(CompileStatus, ARunOfShortCompilesIsShownWithItsCount) {
  auto rec = std::make_shared<Recorder>();
  cs::enable_for_testing([rec](const std::string& s) { (*rec)(s); }, 0.1, 0.01);
  for (int i = 0; i < 6; ++i) {
    cs::Scope s("kernel_" + std::to_string(i), "NVRTC");
    sleep_ms(40);  // each shorter than 0.1 s; together longer
  }
  const std::string out = rec->get();
  EXPECT_EQ(out.find("kernel_0 with NVRTC"), std::string::npos) << out;
  EXPECT_NE(out.find("compiling kernel_5 with NVRTC ... "), std::string::npos) << out;
  EXPECT_NE(out.find("(kernel 6 in "), std::string::npos) << out;
  EXPECT_EQ(out.back(), '\r');
}

TEST(CompileStatus, ConcurrentCompilesShowTheOldest) {
  auto rec = std::make_shared<Recorder>();
  cs::enable_for_testing([rec](const std::string& s) { (*rec)(s); }, 0.03, 0.01);
  {
    cs::Scope a("first.cu", "the host compiler");
    sleep_ms(5);
    std::thread t([] {
      cs::Scope b("second.cu", "the host compiler");
      sleep_ms(100);
    });
    sleep_ms(60);
    const std::string mid = rec->get();
    EXPECT_NE(mid.find("compiling first.cu"), std::string::npos) << mid;
    t.join();
  }
  EXPECT_EQ(rec->get().back(), '\r');
}
