"""The test suite itself: no test file defines a name twice at module level. Python keeps the
last definition, so a second `def test_x` silently drops the first test and every case of its
parametrization (a new layout test once shadowed an older one of the same name and took 204
cases out of the run with nothing failing)."""

import ast
import collections
import pathlib

import pytest

TEST_FILES = sorted(pathlib.Path(__file__).resolve().parent.glob("*.py"))


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_no_module_level_name_is_defined_twice(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    names = collections.Counter(
        node.name for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    twice = sorted(name for name, count in names.items() if count > 1)
    assert not twice, f"{path.name} defines {twice} more than once: the later one hides the first"
