// A small program against the installed accel: elementwise math with broadcasting, checked.
#include <accel/accel.h>

#include <cmath>
#include <cstdio>

int main() {
  using namespace accel;
  Device cpu = Device::cpu();
  Array x = Array::from_vector<float>({0.f, 1.f, 2.f, 3.f, 4.f, 5.f}, {2, 3}, cpu);
  Array bias = Array::from_vector<float>({10.f, 20.f, 30.f}, {3}, cpu);
  Array y = sin(x) * 2.0f + bias - 1;  // float32 throughout: C++ numbers are weak scalars
  std::vector<float> v = y.to_vector<float>();
  int bad = 0;
  for (int i = 0; i < 6; ++i) {
    float want = std::sin(float(i)) * 2.f + 10.f * float(i % 3 + 1) - 1.f;
    if (std::fabs(v[i] - want) > 1e-5f) ++bad;
  }
  std::printf("accel consumer: y = sin(x) * 2 + bias - 1 -> %s, dtype %s, %s\n",
              shape_str(y.shape()).c_str(), dtype_name(y.dtype()), bad ? "MISMATCH" : "ok");
  return bad ? 1 : 0;
}
