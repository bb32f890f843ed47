"""record_class gives the hook's types what @dataclass gave them: the same constructor, equality,
hashing, frozen fields, fresh mutable defaults, replace and as_dict, and a pickle round trip."""
from __future__ import annotations

import pickle

import pytest

from tiergit.core.config import GateSettings, ScoringSettings, Tier
from tiergit.core.record import Factory, record_class


@record_class(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: dict = Factory(dict)


@record_class
class Bag:
    name: str
    items: list = Factory(list)

    def as_dict(self) -> dict:   # a method the class writes itself is kept
        return {"name": self.name.upper()}


@record_class(frozen=True, eq=False)
class Row:
    kind: str


def test_constructor_defaults_and_errors() -> None:
    assert Point(1) == Point(x=1, y=0) == Point(1, 0, {}) and Point(1) != Point(2)
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags={})"
    with pytest.raises(TypeError, match="missing argument 'x'"):
        Point()
    with pytest.raises(TypeError, match="unexpected or repeated argument 'z'"):
        Point(1, z=3)
    with pytest.raises(TypeError, match="repeated argument 'x'"):
        Point(1, x=2)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        Point(1, 2, {}, 4)


def test_frozen_hashing_and_mutable_defaults() -> None:
    p = Point(1, 2)
    with pytest.raises(AttributeError, match="frozen Point"):
        p.x = 3   # type: ignore[misc]
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))   # type: ignore[arg-type]
    a, b = Bag("a"), Bag("b")
    a.items.append(1)
    assert b.items == [] and a == Bag("a", [1])
    with pytest.raises(TypeError):
        hash(a)
    assert Row("x") != Row("x") and len({Row("x"), Row("x")}) == 2   # eq=False: by identity


def test_replace_as_dict_and_pickle() -> None:
    assert Point(1, 2).replace(y=5) == Point(1, 5) and Point(1).as_dict() == {"x": 1, "y": 0, "tags": {}}
    assert Bag("a").as_dict() == {"name": "A"} and Bag("a").replace(name="b") == Bag("b")
    with pytest.raises(TypeError):
        Point(1).replace(z=1)
    for value in (Point(1, 2), Bag("a", [1]), GateSettings(min_score=0.5), Tier("cold", "cold/{agent}.md")):
        assert pickle.loads(pickle.dumps(value)) == value


def test_the_config_types_keep_their_fields() -> None:
    assert GateSettings()._fields[:3] == ("min_score", "min_recalls", "min_age_days")
    assert GateSettings().as_dict()["min_score"] == 0.70
    s = ScoringSettings()
    s.weights["relevance"] = 1.0
    assert ScoringSettings().weights["relevance"] == 0.30   # each instance its own weights
