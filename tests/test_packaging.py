"""Start-up and installation: the command line loads only what a command uses, and the runtime
dependencies are exactly the packages the runtime imports."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "polars", "matplotlib", "pandas", "pyarrow")


def modules_after(code: str) -> set[str]:
    """The top-level packages loaded by running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return set(result.stdout.split())


@pytest.mark.parametrize(
    "code",
    [
        "import cli.main",
        "import analyzer",
        # The commands that answer at the table: loading their modules pulls no heavy library.
        "import analyzer.analysis, analyzer.tactics, analyzer.contracts, analyzer.simulate",
    ],
)
def test_starting_loads_no_heavy_library(code: str) -> None:
    loaded = modules_after(code)
    assert not loaded & set(HEAVY), f"{code!r} loads {sorted(loaded & set(HEAVY))}"


def test_the_help_loads_no_heavy_library() -> None:
    code = "import sys\nsys.argv = ['halfsuit', '--help']\nfrom cli.main import app\ntry:\n    app()\nexcept SystemExit:\n    pass"
    loaded = modules_after(code)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


# Distribution name -> the name it is imported by, where they differ.
IMPORT_NAME = {"python-constraint2": "constraint", "import-linter": "importlinter", "ortools": "ortools"}
OPTIONAL_IMPORTS = {"ortools", "distributed"}  # the bench and cluster extras: imported only when asked for


def project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        data: dict[str, object] = tomllib.load(f)["project"]
    return data


def requirement_name(text: str) -> str:
    name = re.split(r"[<>=!~\[; ]", text, maxsplit=1)[0].lower()
    return IMPORT_NAME.get(name, name.replace("-", "_"))


def third_party_imports(*folders: str) -> set[str]:
    """Every top-level package imported anywhere in these folders (at module level or inside a
    function) that is neither the standard library nor the project itself."""
    found: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in ("analyzer", "cli", "tests")}


def test_runtime_dependencies_are_exactly_what_the_runtime_imports() -> None:
    declared = {requirement_name(r) for r in project()["dependencies"]}  # type: ignore[attr-defined]
    imported = third_party_imports("analyzer", "cli") - OPTIONAL_IMPORTS
    assert declared == imported


def test_oracles_and_pandas_are_extras_not_runtime_dependencies() -> None:
    declared = {requirement_name(r) for r in project()["dependencies"]}  # type: ignore[attr-defined]
    extras: dict[str, list[str]] = project()["optional-dependencies"]  # type: ignore[assignment]
    assert not declared & {"pandas", "pyarrow", "networkx", "constraint"}
    assert {"pandas", "pyarrow"} <= {requirement_name(r) for r in extras["pandas"]}
    test_extra = {requirement_name(r) for r in extras["test"]}
    assert {"networkx", "constraint"} <= test_extra
    # The tests import the oracles; nothing outside the tests does.
    assert {"networkx", "constraint"} <= third_party_imports("tests")
    assert not {"networkx", "constraint", "pandas", "pyarrow"} & third_party_imports("analyzer", "cli", "scripts")


@pytest.mark.slow
def test_a_fresh_install_is_light_and_the_pandas_extra_converts_tables(tmp_path: Path) -> None:
    """``pip install -e .`` into a fresh environment pulls no pandas, pyarrow or test oracle;
    ``pip install -e '.[pandas]'`` then makes ``to_pandas()`` work (minutes: it installs)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")

    def pip(*args: str) -> str:
        done = subprocess.run([python, "-m", "pip", *args], capture_output=True, text=True, check=True, timeout=1800)
        return done.stdout

    pip("install", "-q", "-e", str(ROOT))
    installed = {line.split("==")[0].lower() for line in pip("freeze", "--exclude-editable").splitlines()}
    assert not installed & {"pandas", "pyarrow", "networkx", "python-constraint2"}
    convert = (
        "import analyzer\n"
        "game = analyzer.replay(analyzer.load('sample_logs/lockout.fish'))\n"
        "print(len(analyzer.events_table(game).to_pandas()))\n"
    )
    without = subprocess.run([python, "-c", convert], cwd=ROOT, capture_output=True, text=True, check=False)
    assert without.returncode != 0 and "pandas" in without.stderr
    pip("install", "-q", "-e", f"{ROOT}[pandas]")
    done = subprocess.run([python, "-c", convert], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "15"
