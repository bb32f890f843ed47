"""What `@dataclass` gave the parser's and the merge's types (equality, repr, a copy with some
fields changed), for classes that write their own `__init__` (`Record`), and the config's and the
checks' types (`record_class`, which writes the `__init__` too): git starts the merge driver once
per file and the hook once per commit, and importing `dataclasses` (with `inspect`, `ast`, `dis`,
`tokenize`) cost ~12-15 ms of each. Pure; imports nothing.
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


class Factory:
    """A field's default made afresh for each instance (dataclasses' `field(default_factory=...)`)."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        self.make = make


def _set_frozen(self, name, value):
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def record_class(cls=None, *, frozen: bool = False, eq: bool = True):
    """What `@dataclass(frozen=..., eq=...)` gives the hook's types, without importing dataclasses:
    an `__init__` over the class's annotated fields in order (a class-level default, or a Factory
    called per instance), `_fields`, repr, `replace`, `as_dict` (shallow), and with `eq` equality
    over the fields (hashable when frozen, else unhashable, as a dataclass); frozen: no assignment."""
    def wrap(cls):
        names = tuple(cls.__dict__.get("__annotations__", {}))
        defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}

        def __init__(self, *args, **kwargs):
            if len(args) > len(names):
                raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, {len(args)} given")
            values = dict(zip(names, args))
            for key, value in kwargs.items():
                if key not in names or key in values:
                    raise TypeError(f"{cls.__name__}() got an unexpected or repeated argument {key!r}")
                values[key] = value
            for name in names:
                if name not in values:
                    if name not in defaults:
                        raise TypeError(f"{cls.__name__}() missing argument {name!r}")
                    default = defaults[name]
                    values[name] = default.make() if isinstance(default, Factory) else default
            self.__dict__.update(values)

        cls.__init__ = __init__
        cls._fields = names
        made = {"__repr__": Record.__repr__, "as_tuple": Record.as_tuple,
                "replace": lambda self, **changes: type(self)(**{**{n: getattr(self, n) for n in names}, **changes}),
                "as_dict": lambda self: {n: getattr(self, n) for n in names}}
        for attr, value in made.items():
            if attr not in cls.__dict__:   # a method the class writes itself stays
                setattr(cls, attr, value)
        if eq:
            cls.__eq__ = Record.__eq__
            cls.__hash__ = (lambda self: hash(self.as_tuple())) if frozen else None
        if frozen:
            cls.__setattr__ = _set_frozen
            cls.__delattr__ = _set_frozen
        return cls

    return wrap if cls is None else wrap(cls)
