// The face sums compiled for AVX2 (CMakeLists.txt sets the instruction set).
#define FACE_SUMS_WIDTH 4
#define FACE_GUST_NAME gustAvx2
#define FACE_SUMS_NAME sumAvx2
#define FACE_OUTER_NAME outerAvx2
#define FACE_QUOTIENT_NAME quotientAvx2
#define FACE_QUAD_NAME quadAvx2
#define FACE_BOX_NAME boxAvx2
#define FACE_LAW_NAME lawAvx2
#define FACE_LIFTK_NAME liftTensorsAvx2
#include "core/face_sums_impl.h"  // NOLINT(bugprone-suspicious-include)
// The whole law, with the helpers above.
#include "core/face_law_impl.h"  // NOLINT(bugprone-suspicious-include)
