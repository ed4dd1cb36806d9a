"""The committed test data: a missing file is an error, never a reason to skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
SHARED = DATA / "shared"  # a copy of the shared simulated records and their computed answers


def committed(folder: Path, pattern: str) -> list[Path]:
    """The committed files in ``folder`` matching ``pattern``, by name; none at all is an error."""
    found = sorted(folder.glob(pattern))
    if not found:
        raise FileNotFoundError(f"no {pattern} in {folder}: committed test data is missing")
    return found


def committed_json(path: Path) -> Any:
    """A committed JSON file (FileNotFoundError when it is missing)."""
    return json.loads(path.read_text(encoding="utf-8"))
