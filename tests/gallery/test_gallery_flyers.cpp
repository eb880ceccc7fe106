// Placeholder: gallery checks (issue 5).
#include <catch2/catch.hpp>
