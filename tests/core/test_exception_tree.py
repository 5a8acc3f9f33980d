"""Every exception class the SDK defines sits under ``HarnessError`` (the tree in harness.exceptions).

Catching ``HarnessError`` must catch everything we raise. A class may also derive from a builtin
(``class X(RunError, TypeError)``) where callers already catch that builtin.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import harness
import instructions
import subagents
from harness.exceptions import HarnessError

_NOT_UNDER_THE_ROOT = {"harness._shadowing.ShadowedPackageError"}
"""Raised while checking that ``subagents`` (home of ``HarnessError``) is ours, so it cannot import it."""


def _modules() -> list[str]:
    names: list[str] = []
    for package in (harness, subagents, instructions):
        names.append(package.__name__)
        names.extend(
            info.name for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        )
    return names


def test_every_exception_class_derives_from_harness_error() -> None:
    outside: list[str] = []
    seen = 0
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            if issubclass(cls, Warning):  # warnings are issued, not raised
                continue
            seen += 1
            qualified = f"{name}.{cls.__qualname__}"
            if not issubclass(cls, HarnessError) and qualified not in _NOT_UNDER_THE_ROOT:
                outside.append(qualified)
    assert outside == []
    assert seen > 20  # the walk found the tree, not an empty package


def test_the_docstring_tree_names_every_public_exception() -> None:
    import harness.exceptions as exceptions

    for name in exceptions.__all__:
        assert name in (exceptions.__doc__ or ""), name


def test_a_missing_extra_error_crosses_a_process_boundary_whole() -> None:
    import pickle

    from harness.exceptions import MissingExtraError, UsageError

    sent = MissingExtraError("reading tide tables", extra="tides")
    received = pickle.loads(pickle.dumps(sent))
    assert type(received) is MissingExtraError
    assert isinstance(received, UsageError) and isinstance(received, ImportError)
    assert (received.feature, received.extra) == ("reading tide tables", "tides")
    assert str(received) == str(sent)
