"""Broken: imports a module that is not installed."""

import tarock_no_such_module  # type: ignore[import-not-found]  # noqa: F401

PLUGIN = object
