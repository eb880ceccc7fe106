// Catch2 main. With SAMARA_FPE_TRAPS (debug preset) invalid operations, division by zero
// and overflow trap, so a NaN never passes silently through a test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#if defined(SAMARA_FPE_TRAPS)
#include <cfenv>
#endif

int main(int argc, char* argv[]) {
#if defined(SAMARA_FPE_TRAPS)
  feenableexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
#endif
  return Catch::Session().run(argc, argv);
}
