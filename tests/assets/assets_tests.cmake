# Generated models (eel, turtle, zeppelin, skinned sea snake) and their behaviour in Worlds
# built in code from the samara_assetgen library: closed parts and plausible mass, swimming,
# flying, turning. Included from tests/.
add_executable(test_assets
  assets/test_models.cpp
  assets/test_swimmers.cpp
  assets/test_zeppelin.cpp
)
target_link_libraries(test_assets PRIVATE samara_assetgen samara_core samara_test_main
                                          samara_warnings)
catch_discover_tests(test_assets TEST_PREFIX "assets/" TEST_SPEC ${SAMARA_CATCH_SPEC})
