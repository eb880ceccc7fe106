# Video from the viewer (issue 7), run with `cmake -P`:
#   -DSAMARA=path/to/samara -DSCENE=scene.json -DOUT=dir/video.mp4 -DMODE=record|missing
# MODE=missing: with no ffmpeg on PATH, `samara view --frames N --video OUT` fails at once
#   (exit 1) with "ffmpeg is not installed (Debian: apt install ffmpeg)" and writes nothing.
# MODE=record: under xvfb-run, 30 frames at --shot-size 320x240 (a window of another size)
#   make a video of 30 frames of 320x240 (ffprobe), and no temporary file is left. Prints
#   "SKIP:" (the test's SKIP_REGULAR_EXPRESSION) without xvfb-run, ffmpeg or ffprobe.
get_filename_component(dir "${OUT}" DIRECTORY)
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")

if(MODE STREQUAL "missing")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env PATH=/nonexistent
            "${SAMARA}" view "${SCENE}" --frames 5 --video "${OUT}"
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1)
    message(FATAL_ERROR "exit code ${code}, expected 1\n${out}${err}")
  endif()
  if(NOT err MATCHES "samara: ffmpeg is not installed \\(Debian: apt install ffmpeg\\)")
    message(FATAL_ERROR "unexpected message: ${err}")
  endif()
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "something was rendered: ${out}")
  endif()
  file(GLOB left "${dir}/*" "${dir}/.*")
  if(left)
    message(FATAL_ERROR "files left: ${left}")
  endif()
  message(STATUS "PASS: ${err}")
  return()
endif()

foreach(tool xvfb-run ffmpeg ffprobe)
  find_program(found_${tool} ${tool})
  if(NOT found_${tool})
    message(STATUS "SKIP: ${tool} is not installed (Debian: xvfb, ffmpeg)")
    return()
  endif()
endforeach()
execute_process(
  COMMAND ${found_xvfb-run} -a -s "-screen 0 704x464x24"
          "${SAMARA}" view "${SCENE}" --frames 30 --video "${OUT}" --shot-size 320x240
          --width 640 --height 400
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "samara view exited with ${code}")
endif()
execute_process(
  COMMAND ${found_ffprobe} -v error -select_streams v:0 -count_frames
          -show_entries stream=width,height,nb_read_frames -of csv=p=0 "${OUT}"
  RESULT_VARIABLE code OUTPUT_VARIABLE probe)
string(STRIP "${probe}" probe)
if(NOT code EQUAL 0 OR NOT probe STREQUAL "320,240,30")
  message(FATAL_ERROR "ffprobe: \"${probe}\", expected \"320,240,30\" (width,height,frames)")
endif()
file(GLOB left "${dir}/.*")
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
message(STATUS "PASS: ${OUT} is 320x240, 30 frames")
