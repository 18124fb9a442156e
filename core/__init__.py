"""The rules engine shared by every variant; it names no variant.

Importing it first loads the native build of the hot modules where one matches
the sources (:mod:`core.native`).
"""

from tarock.core import native as _native

_native.install()
