"""The session's squad repository, copied per test, lives in conftest.py; the delivery and
merge-driver tests import these names from here."""
from __future__ import annotations

from conftest import squad_repo, squad_template  # noqa: F401
