# Every third-party dependency is a Debian bookworm package (see scripts/install-deps).
# Imported targets' include directories are SYSTEM, so their warnings stay out of ours.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
if(SAMARA_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(SAMARA_BENCH)
  find_package(benchmark REQUIRED)
endif()
