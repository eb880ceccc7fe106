# Golden state hash of one shipped scene: runs `samara run SCENE --steps N` and compares the
# SHA-256 of its CSV (every body's pose, velocity, momentum and diagnostics at every step,
# printed with %.17g, so every bit of the state) with the checked-in table.
#
#   cmake -DSAMARA=… -DSCENE=… -DKEY=… -DSTEPS=… -DTABLE=… -DWORK=… -P golden.cmake
#
# With the environment variable SAMARA_UPDATE_GOLDEN set, the hash is written to WORK/KEY.sha256 instead (`make update-golden`
# collects those into the table). A changed hash needs a sentence in the commit message
# saying why the motion changed.
foreach(var SAMARA SCENE KEY STEPS TABLE WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "golden.cmake: ${var} is not set")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK}")
string(REPLACE "/" "_" stem "${KEY}")
set(csv "${WORK}/${stem}.csv")
# -DMODEL=NAME: every body under the default model ("samara") runs under NAME instead (the
# paper's model, gwtf-2024, must keep the bits it had while it was the default).
set(sets "")
if(DEFINED MODEL)
  execute_process(COMMAND "${SAMARA}" inspect "${SCENE}" OUTPUT_VARIABLE info
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${KEY}: samara inspect failed (exit ${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "\n  model +[^ \n]+" models "${info}")
  set(i 0)
  foreach(m ${models})
    if(m MATCHES "model +samara$")
      list(APPEND sets --set "bodies.${i}.model=${MODEL}")
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
endif()
execute_process(COMMAND "${SAMARA}" run "${SCENE}" --steps ${STEPS} ${sets} --out "${csv}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${KEY}: samara run failed (exit ${rc}): ${err}")
endif()
file(SHA256 "${csv}" hash)
file(REMOVE "${csv}")
if(DEFINED ENV{SAMARA_UPDATE_GOLDEN})
  file(WRITE "${WORK}/${stem}.sha256" "${KEY} ${STEPS} ${hash}\n")
  return()
endif()
file(STRINGS "${TABLE}" lines REGEX "^${KEY} ")
list(LENGTH lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${KEY}: no entry in ${TABLE} (run `make update-golden`)")
endif()
string(REPLACE " " ";" fields "${lines}")
list(GET fields 1 wantSteps)
list(GET fields 2 want)
if(NOT wantSteps EQUAL STEPS)
  message(FATAL_ERROR "${KEY}: the table holds ${wantSteps} steps, the test runs ${STEPS}")
endif()
if(NOT hash STREQUAL want)
  message(FATAL_ERROR "${KEY}: the CSV of ${STEPS} steps changed\n  table: ${want}\n  now:   ${hash}\n"
                      "If the change of motion is intended, run `make update-golden` and say why "
                      "in the commit message.")
endif()
message(STATUS "${KEY}: ${hash} (${STEPS} steps) as in the table")
