# Peak-memory tests (label slow): they fork, generate an 80 MB OBJ and read the child's
# VmHWM, so they run in plain builds only (sanitizers multiply every figure) and not where
# slow tests are skipped.
if(NOT SAMARA_SKIP_SLOW AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  add_executable(test_memory io/test_memory.cpp)
  target_link_libraries(test_memory PRIVATE samara_io samara_test_main samara_warnings)
  target_compile_definitions(test_memory PRIVATE SAMARA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  catch_discover_tests(test_memory TEST_PREFIX "memory/" PROPERTIES LABELS slow TIMEOUT 300)
endif()
