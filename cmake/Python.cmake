# SPDX-License-Identifier: MIT
# Finds the Python interpreter and headers and pybind11 for the Python module (python/), quietly: without them the
# module is not built (FFTBLOOM_BUILD_PYTHON defaults to pybind11_FOUND).
# Debian's pybind11-dev, python3-numpy and python3-pytest belong to the system interpreter, /usr/bin/python3: it is
# looked for first, before another python3 earlier on PATH (pyenv's, a virtual environment's) that may lack NumPy.
# -DPython_EXECUTABLE=... (or -DPython_ROOT_DIR=...) picks another.
if(NOT DEFINED Python_EXECUTABLE AND NOT DEFINED Python_ROOT_DIR AND EXISTS /usr/bin/python3)
    set(Python_ROOT_DIR /usr)
endif()
find_package(Python 3 QUIET COMPONENTS Interpreter Development.Module)
# pybind11 through CMake's FindPython (the interpreter found above), not its own older search.
set(PYBIND11_FINDPYTHON ON)
if(Python_FOUND)
    find_package(pybind11 CONFIG QUIET)
endif()
