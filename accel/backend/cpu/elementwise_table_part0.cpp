// One quarter of the elementwise loop table (see elementwise_table.h).
#include "accel/backend/cpu/elementwise_table.h"

namespace accel::cpu {
template void fill_table_part<0>(LoopTable&);
}  // namespace accel::cpu
