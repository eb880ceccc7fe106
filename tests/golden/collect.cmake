# `make update-golden`: gathers WORK/*.sha256 (written by the golden tests with UPDATE=ON)
# into the sorted table TABLE.
file(GLOB parts "${WORK}/*.sha256")
set(rows "")
foreach(p ${parts})
  file(STRINGS "${p}" line)
  list(APPEND rows "${line}")
endforeach()
list(SORT rows)
list(LENGTH rows n)
if(n EQUAL 0)
  message(FATAL_ERROR "update-golden: no hashes in ${WORK}")
endif()
string(REPLACE ";" "\n" text "${rows}")
file(WRITE "${TABLE}"
     "# Golden state hashes: KEY STEPS SHA-256 of `samara run SCENE --steps STEPS` (gcc, Release).\n"
     "# Regenerate with `make update-golden`; a changed line needs a reason in the commit message.\n"
     "${text}\n")
message(STATUS "update-golden: ${n} hashes written to ${TABLE}")
