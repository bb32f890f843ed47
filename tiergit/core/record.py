"""What `@dataclass` gave the parser's and the merge's types (equality, repr, a copy with some
fields changed), for classes that write their own `__init__`: git starts the merge driver once per
file, and importing `dataclasses` (with `inspect`, `ast`, `dis`, `tokenize`) cost ~12 ms of each
one's ~75. Pure; imports nothing.
"""
from __future__ import annotations


class Record:
    """Equality and repr over `_fields`, in order; unhashable, as a mutable dataclass is."""

    _fields: tuple[str, ...] = ()
    __hash__ = None   # type: ignore[assignment]

    def as_tuple(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.as_tuple() == other.as_tuple()   # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"

    def replace(self, **changes):
        """A shallow copy with `changes` applied (as dataclasses.replace)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new
