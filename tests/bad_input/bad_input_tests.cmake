# The bad-input suite (issue 16): one ctest per table in tests/bad_input/, each case run
# against the real executable (exit code, message words, nothing left behind).
add_executable(bad_input_runner bad_input/runner.cpp)
target_link_libraries(bad_input_runner PRIVATE nlohmann_json::nlohmann_json samara_warnings)
add_dependencies(bad_input_runner samara)
file(GLOB _bad_input_tables CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/*.jsonc)
foreach(_table IN LISTS _bad_input_tables)
  get_filename_component(_stem ${_table} NAME_WE)
  add_test(NAME bad_input/${_stem}
           COMMAND bad_input_runner $<TARGET_FILE:samara> ${PROJECT_SOURCE_DIR} ${_table})
  set_tests_properties(bad_input/${_stem} PROPERTIES LABELS bad_input TIMEOUT 600)
endforeach()
