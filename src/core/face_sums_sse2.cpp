// The face sums compiled for SSE2 (every x86-64) (CMakeLists.txt sets the instruction set).
#define FACE_SUMS_WIDTH 2
#define FACE_GUST_NAME gustSse2
#define FACE_SUMS_NAME sumSse2
#define FACE_OUTER_NAME outerSse2
#define FACE_QUOTIENT_NAME quotientSse2
#define FACE_QUAD_NAME quadSse2
#define FACE_BOX_NAME boxSse2
#define FACE_LAW_NAME lawSse2
#define FACE_LIFTK_NAME liftTensorsSse2
#include "core/face_sums_impl.h"  // NOLINT(bugprone-suspicious-include)
// The whole law, with the helpers above.
#include "core/face_law_impl.h"  // NOLINT(bugprone-suspicious-include)
