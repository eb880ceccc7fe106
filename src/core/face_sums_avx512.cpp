// The face sums compiled for AVX-512F (CMakeLists.txt sets the instruction set).
#define FACE_SUMS_WIDTH 8
#define FACE_GUST_NAME gustAvx512
#define FACE_SUMS_NAME sumAvx512
#define FACE_OUTER_NAME outerAvx512
#define FACE_QUOTIENT_NAME quotientAvx512
#define FACE_QUAD_NAME quadAvx512
#define FACE_BOX_NAME boxAvx512
#define FACE_LAW_NAME lawAvx512
#define FACE_LIFTK_NAME liftTensorsAvx512
#include "core/face_sums_impl.h"  // NOLINT(bugprone-suspicious-include)
// The whole law, with the helpers above.
#include "core/face_law_impl.h"  // NOLINT(bugprone-suspicious-include)
