"""The package names the interpreter it was built for when imported from another Python."""
import os
import shutil
import subprocess
import sys

import aclnn_cpu
from aclnn_cpu import _build_info


def test_built_for_this_interpreter():
    assert _build_info.PYTHON_VERSION == sys.version_info[:2]
    assert os.path.exists(_build_info.PYTHON_EXECUTABLE)


def test_another_python_version_gets_an_error_naming_the_interpreter(tmp_path):
    package = os.path.dirname(aclnn_cpu.__file__)
    copy = tmp_path / "aclnn_cpu"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "_build_info.py").write_text('PYTHON_EXECUTABLE = "/opt/python2.7/bin/python"\n'
                                         "PYTHON_VERSION = (2, 7)\n")
    done = subprocess.run([sys.executable, "-c", "import aclnn_cpu"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=60)
    assert done.returncode != 0
    assert "ImportError: aclnn_cpu was built for Python 2.7 (/opt/python2.7/bin/python)" in done.stderr
    assert sys.executable in done.stderr
