"""The type stubs (__init__.pyi) match the module at run time (mypy's stubtest)."""

import subprocess
import sys

import pytest


def test_stubs_match_the_runtime(tmp_path):
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "ptc_lisp"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_package_is_typed():
    import importlib.resources

    assert importlib.resources.files("ptc_lisp").joinpath("py.typed").is_file()
    assert importlib.resources.files("ptc_lisp").joinpath("__init__.pyi").is_file()
