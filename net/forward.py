"""A read-only attribute that reads through another one: ``ctx = Forward[DealContext]("att",
"ctx")`` makes ``obj.ctx`` mean ``obj.att.ctx`` (what a façade shows of the parts it holds,
without a property written out for each)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Forward(Generic[T]):
    """``obj.<name>`` is ``obj.<via>.<name>`` (or ``.<attr>``, when given), read-only."""

    def __init__(self, via: str, attr: str = "") -> None:
        self.via = via
        self.attr = attr

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = self.attr or name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Forward[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Forward[T] | T:
        if obj is None:
            return self
        value: Any = getattr(getattr(obj, self.via), self.attr)
        return value  # type: ignore[no-any-return]

    def __set__(self, obj: object, value: object) -> None:
        raise AttributeError(f"{self.attr} is read through {self.via}: set it there")
