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
# FFTW 3 (libfftw3-dev): the Fourier transforms of the 2D Navier–Stokes reference (src/fluid).
find_path(FFTW3_INCLUDE_DIR fftw3.h REQUIRED)
find_library(FFTW3_LIBRARY fftw3 REQUIRED)
add_library(samara_fftw3 INTERFACE)
target_include_directories(samara_fftw3 SYSTEM INTERFACE ${FFTW3_INCLUDE_DIR})
target_link_libraries(samara_fftw3 INTERFACE ${FFTW3_LIBRARY})
