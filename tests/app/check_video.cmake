# Video from the viewer (issues 7 and 15), run with `cmake -P`:
#   -DSAMARA=path/to/samara -DSCENE=scene.json -DOUT=dir/video.mp4 -DMODE=record|view|ui|missing
# MODE=missing: with no ffmpeg on PATH, `samara view --frames N --video OUT` fails at once
#   (exit 1) with "ffmpeg is not installed (Debian: apt install ffmpeg)" and writes nothing.
# MODE=record: under xvfb-run, 30 frames at --shot-size 320x240 (a window of another size)
#   make a video of 30 frames of 320x240 at 60 frames per second, and no temporary file is
#   left.
# MODE=view: 30 frames with --video-fps 30 and no --shot-size make a video of the 3D view
#   alone: its size in pixels from the layout report (rounded down to even), 30/1 frames per
#   second, and the last frame is the 3D view's rectangle of the --screenshot of the same
#   frame (the window, panels included) to ≥ 30 dB PSNR in RGB decoded as BT.709.
# MODE=ui: --video-ui makes a video of the whole window (640x400).
# Every recorded video: yuv420p, limited range, BT.709 primaries, transfer and matrix, and
#   the 'moov' box before 'mdat' (faststart). MODE=record|view|ui print "SKIP:" (the test's
#   SKIP_REGULAR_EXPRESSION) without xvfb-run, ffmpeg or ffprobe.
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

# The top-level boxes of the MP4 file `file` in order ("ftyp;moov;free;mdat"), into `var`.
function(mp4_boxes file var)
  file(SIZE "${file}" size)
  set(offset 0)
  set(boxes)
  while(offset LESS size)
    file(READ "${file}" head OFFSET ${offset} LIMIT 16 HEX)
    string(SUBSTRING "${head}" 0 8 len_hex)
    math(EXPR len "0x${len_hex}")
    set(type "")
    foreach(i 8 10 12 14)
      string(SUBSTRING "${head}" ${i} 2 byte)
      math(EXPR code "0x${byte}")
      string(ASCII ${code} char)
      string(APPEND type "${char}")
    endforeach()
    list(APPEND boxes "${type}")
    if(len EQUAL 1)  # a 64-bit size follows the type
      string(SUBSTRING "${head}" 16 16 len_hex)
      math(EXPR len "0x${len_hex}")
    elseif(len EQUAL 0)  # to the end of the file
      math(EXPR len "${size} - ${offset}")
    endif()
    if(len LESS 8)
      message(FATAL_ERROR "${file}: a box '${type}' of ${len} bytes at ${offset}")
    endif()
    math(EXPR offset "${offset} + ${len}")
  endwhile()
  set(${var} "${boxes}" PARENT_SCOPE)
endfunction()

# ffprobe's stream of `file`: the size, the frames, the frame rate and the colour tags.
function(check_stream file width height rate frames)
  execute_process(
    COMMAND ${found_ffprobe} -v error -select_streams v:0 -count_frames -show_streams -of json
            "${file}"
    RESULT_VARIABLE code OUTPUT_VARIABLE json)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "ffprobe failed on ${file}")
  endif()
  set(expected width=${width} height=${height} r_frame_rate=${rate} nb_read_frames=${frames}
      pix_fmt=yuv420p color_range=tv color_primaries=bt709 color_transfer=bt709
      color_space=bt709)
  foreach(pair ${expected})
    string(REPLACE "=" ";" kv "${pair}")
    list(GET kv 0 key)
    list(GET kv 1 want)
    string(JSON got ERROR_VARIABLE missing GET "${json}" streams 0 ${key})
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "${file}: ${key} is \"${got}\", expected \"${want}\"\n${json}")
    endif()
  endforeach()
  mp4_boxes("${file}" boxes)
  list(FIND boxes moov moov)
  list(FIND boxes mdat mdat)
  if(moov LESS 0 OR mdat LESS 0 OR moov GREATER mdat)
    message(FATAL_ERROR "${file}: top-level boxes ${boxes}: 'moov' must come before 'mdat'")
  endif()
  message(STATUS "${file}: ${width}x${height}, ${frames} frames at ${rate}, yuv420p tv bt709, "
                 "boxes ${boxes}")
endfunction()

# A non-negative decimal ("166.40000000000001", as string(JSON) gives the report's numbers)
# in hundredths, rounded, into `var`.
function(hundredths value var)
  if(NOT value MATCHES "^([0-9]+)(\\.([0-9]*))?$")
    message(FATAL_ERROR "not a decimal: ${value}")
  endif()
  set(int ${CMAKE_MATCH_1})
  string(APPEND CMAKE_MATCH_3 "000")
  string(SUBSTRING "${CMAKE_MATCH_3}" 0 2 frac)
  string(SUBSTRING "${CMAKE_MATCH_3}" 2 1 next)
  math(EXPR n "${int} * 100 + 1${frac} - 100")
  if(next GREATER_EQUAL 5)
    math(EXPR n "${n} + 1")
  endif()
  set(${var} ${n} PARENT_SCOPE)
endfunction()

set(size 640x400)
set(screen "-screen 0 704x464x24")
set(args --frames 30 --video "${OUT}" --width 640 --height 400)
if(MODE STREQUAL "record")
  list(APPEND args --shot-size 320x240)
elseif(MODE STREQUAL "view")
  list(APPEND args --video-fps 30 --screenshot "${dir}/shot.png"
       --layout-report "${dir}/layout.json")
elseif(MODE STREQUAL "ui")
  list(APPEND args --video-ui)
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
# An authority file of our own, outside ${dir} (checked for leftovers below): without -f,
# xvfb-run removes a temporary directory of its own on exit and, when that fails, exits 5 in
# place of the viewer's status (as in check_screenshot.cpp).
set(auth "${dir}.xauth")
file(REMOVE "${auth}")
execute_process(
  COMMAND ${found_xvfb-run} -a -f "${auth}" -s "${screen}" "${SAMARA}" view "${SCENE}" ${args}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE "${auth}")
message(STATUS "${out}${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "samara view exited with ${code}")
endif()
file(GLOB left "${dir}/.*")
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
# Each frame is 1/fps s of simulated time: 30 frames are 1 s at 30 fps, 0.5 s at 60.
set(seconds 0.5)
set(bounds 0.495 0.505)
if(MODE STREQUAL "view")
  set(seconds 1)
  set(bounds 0.99 1.01)
endif()
list(GET bounds 0 lo)
list(GET bounds 1 hi)
string(REGEX MATCH "simulated time ([0-9.e+-]+) s" m "${out}")
set(t "${CMAKE_MATCH_1}")
if(t STREQUAL "" OR t LESS lo OR t GREATER hi)
  message(FATAL_ERROR "simulated time \"${t}\" s, expected ${seconds} s")
endif()

if(MODE STREQUAL "record")
  check_stream("${OUT}" 320 240 60/1 30)
elseif(MODE STREQUAL "ui")
  check_stream("${OUT}" 640 400 60/1 30)
else()
  # The 3D view's rectangle in pixels (window units = pixels under Xvfb), as the viewer
  # rounds it, then even.
  file(READ "${dir}/layout.json" layout)
  foreach(i 0 1 2 3)
    string(JSON v GET "${layout}" view ${i})
    hundredths("${v}" c${i})
  endforeach()
  # std::lround of x, y, x + w and y + h (hundredths + 50, integer division).
  math(EXPR x "(${c0} + 50) / 100")
  math(EXPR top "(${c1} + 50) / 100")
  math(EXPR right "(${c0} + ${c2} + 50) / 100")
  math(EXPR bottom "(${c1} + ${c3} + 50) / 100")
  math(EXPR w "(${right} - ${x}) / 2 * 2")
  math(EXPR h "(${bottom} - ${top}) / 2 * 2")
  math(EXPR crop_y "${bottom} - ${h}")
  if(w GREATER_EQUAL 640 OR h GREATER_EQUAL 400)
    message(FATAL_ERROR "the 3D view is ${w}x${h}: the whole window?\n${layout}")
  endif()
  check_stream("${OUT}" ${w} ${h} 30/1 30)
  # The last frame against the same frame's screenshot, cropped to the 3D view.
  execute_process(
    COMMAND ${found_ffmpeg} -hide_banner -i "${OUT}" -i "${dir}/shot.png" -lavfi
            "[0:v]select=eq(n\\,29),scale=in_color_matrix=bt709:in_range=tv,format=rgb24[v];[1:v]crop=${w}:${h}:${x}:${crop_y},format=rgb24[r];[v][r]psnr"
            -f null -
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "average:([0-9.]+|inf)" m "${err}")
  set(psnr "${CMAKE_MATCH_1}")
  if(NOT code EQUAL 0 OR psnr STREQUAL "")
    message(FATAL_ERROR "ffmpeg psnr failed:\n${err}")
  endif()
  if(NOT psnr STREQUAL "inf" AND psnr LESS 30)
    message(FATAL_ERROR "the last frame is not the 3D view of the screenshot: PSNR ${psnr} dB")
  endif()
  message(STATUS "last frame vs the screenshot's 3D view (${w}x${h}+${x}+${crop_y}): "
                 "PSNR ${psnr} dB")
endif()
message(STATUS "PASS: ${OUT}")
