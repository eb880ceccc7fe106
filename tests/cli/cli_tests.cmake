# Command-line tests: runCli with string streams, and the real `samara` executable for exit
# codes, --out behaviour and determinism across processes. Included from tests/.
add_executable(test_cli cli/test_cli.cpp cli/test_cli_models.cpp cli/test_cli_export.cpp
                        cli/test_cli_sweep.cpp cli/test_cli_out.cpp
                        cli/test_cli_hardening.cpp cli/test_cli_threads.cpp)
target_link_libraries(test_cli PRIVATE samara_cli nlohmann_json::nlohmann_json samara_test_main
                                       samara_warnings)
target_compile_definitions(test_cli PRIVATE
  SAMARA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  SAMARA_EXE="$<TARGET_FILE:samara>")
if(SAMARA_VIEWER)
  target_compile_definitions(test_cli PRIVATE SAMARA_HAVE_VIEWER=1)
endif()
add_dependencies(test_cli samara)
catch_discover_tests(test_cli TEST_PREFIX "cli/")
