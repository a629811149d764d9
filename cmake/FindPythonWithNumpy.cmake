# Chooses the Python the package is built for: one that can import numpy (the package needs it at run time,
# and the aclnn-cpu command's first line names it), preferring one that also has pytest (for the tests).
# A pyenv or venv python3 first on PATH often has neither while Debian's /usr/bin/python3 has both, so the
# candidates are every python3 on PATH, then /usr/bin/python3; -DPython3_EXECUTABLE=... is checked the same way.
#
# Sets ACLNN_CPU_PYTHON_FOUND, ACLNN_CPU_PYTHON_HAS_PYTEST and, when found, Python3_EXECUTABLE (cached).
# Says in the configure output which interpreter it took, or why the Python package is left out.

function(_aclnn_cpu_python_can candidate module result)
  execute_process(COMMAND "${candidate}" -c "import ${module}" RESULT_VARIABLE failed OUTPUT_QUIET ERROR_QUIET)
  if(failed)
    set(${result} FALSE PARENT_SCOPE)
  else()
    set(${result} TRUE PARENT_SCOPE)
  endif()
endfunction()

set(ACLNN_CPU_PYTHON_FOUND FALSE)
set(ACLNN_CPU_PYTHON_HAS_PYTEST FALSE)
if(Python3_EXECUTABLE)
  set(_candidates "${Python3_EXECUTABLE}")
  set(_origin "Python3_EXECUTABLE")
else()
  set(_candidates "")
  string(REPLACE ":" ";" _path "$ENV{PATH}")
  foreach(directory ${_path})
    if(EXISTS "${directory}/python3" AND NOT IS_DIRECTORY "${directory}/python3")
      list(APPEND _candidates "${directory}/python3")
    endif()
  endforeach()
  list(APPEND _candidates /usr/bin/python3)
  list(REMOVE_DUPLICATES _candidates)
  set(_origin "PATH and /usr/bin/python3")
endif()

set(_with_numpy "")
foreach(candidate ${_candidates})
  _aclnn_cpu_python_can("${candidate}" numpy has_numpy)
  if(NOT has_numpy)
    message(STATUS "aclnn-cpu: ${candidate} cannot import numpy; not building for it")
    continue()
  endif()
  _aclnn_cpu_python_can("${candidate}" pytest has_pytest)
  if(has_pytest)
    set(_with_numpy "${candidate}")
    set(ACLNN_CPU_PYTHON_HAS_PYTEST TRUE)
    break()
  elseif(NOT _with_numpy)
    set(_with_numpy "${candidate}")
  endif()
endforeach()

if(_with_numpy)
  # The real file, not a pyenv shim: the command's first line must keep naming the same interpreter.
  execute_process(COMMAND "${_with_numpy}" -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE _real OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(Python3_EXECUTABLE "${_real}" CACHE FILEPATH "The Python the aclnn_cpu package is built for" FORCE)
  set(ACLNN_CPU_PYTHON_FOUND TRUE)
  if(ACLNN_CPU_PYTHON_HAS_PYTEST)
    message(STATUS "aclnn-cpu: building the Python package for ${Python3_EXECUTABLE} (numpy and pytest found)")
  else()
    message(WARNING "aclnn-cpu: building the Python package for ${Python3_EXECUTABLE}, which has numpy but "
                    "not pytest: the Python tests are not registered (Debian: apt-get install python3-pytest)")
  endif()
else()
  message(WARNING "aclnn-cpu: no Python with numpy among ${_candidates} (from ${_origin}): the Python package "
                  "and the aclnn-cpu command are not built. Debian: apt-get install python3-numpy python3-dev "
                  "pybind11-dev libdlpack-dev, or pass -DPython3_EXECUTABLE=<a python with numpy>.")
endif()
