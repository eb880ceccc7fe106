// samara: light bodies in air and water. The command line lives in cli/commands.cpp.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  samara::cli::installInterruptHandler();
  const int code = samara::cli::runCli(argc, argv, std::cout, std::cerr);
  std::cout.flush();
  return code;
}
