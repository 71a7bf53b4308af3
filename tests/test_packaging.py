"""What a release ships: the wheel and the sdist hold every file of the package, one version
everywhere, a changelog, classifiers that name what CI tests, and `scripts/check`, the one
entry point, whose lint part runs actionlint over the workflows.

The wheel and sdist tests read the files `scripts/check wheel` builds (named by ECARTE_WHEEL
and ECARTE_SDIST); under ECARTE_TEST_WHEEL=1 the whole suite must be importing an installed
ecarte, never the checkout's (tests/conftest.py refuses to start otherwise).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import ecarte
import pytest
from cli_support import run_ecarte

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "ecarte"
WORKFLOWS = ROOT / ".github" / "workflows"


def package_files() -> list[str]:
    """Every source file of the package, relative to python/ (no bytecode, no built module)."""
    return sorted(
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix not in {".so", ".pyd", ".pyc"}
    )


def cargo_version() -> str:
    package = re.search(
        r"^\[package\]\n(.*?)(?:^\[|\Z)", (ROOT / "Cargo.toml").read_text(), re.S | re.M
    )
    assert package is not None
    version = re.search(r'^version = "([^"]+)"$', package.group(1), re.M)
    assert version is not None
    return version.group(1)


ecarte_cli = functools.partial(run_ecarte, input="", check=True, timeout=60)


def test_the_version_is_written_once_and_every_face_reports_it() -> None:
    version = cargo_version()
    assert ecarte.__version__ == version
    assert metadata.version("ecarte") == version
    assert ecarte_cli("--version").stdout.strip() == f"ecarte, version {version}"
    hello = json.loads(
        ecarte_cli("engine", input='{"id": 1, "cmd": "hello"}\n').stdout.splitlines()[0]
    )
    assert hello["result"]["engine"] == version
    # pyproject.toml leaves it to maturin, which reads Cargo.toml.
    assert re.search(r'^dynamic = \["version"\]$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert not re.search(r"^version\s*=", (ROOT / "pyproject.toml").read_text(), re.M)


def test_the_changelog_keeps_a_changelog_and_its_last_release_is_the_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[0] == "[Unreleased]"
    releases = [re.fullmatch(r"\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", h) for h in headings[1:]]
    assert releases and all(releases), headings
    assert releases[0] is not None and releases[0].group(1) == cargo_version()
    kinds = set(re.findall(r"^### (.*)$", text, re.M))
    assert kinds and kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


OPERATING_SYSTEMS = {
    "ubuntu": "Operating System :: POSIX :: Linux",
    "macos": "Operating System :: MacOS",
    "windows": "Operating System :: Microsoft :: Windows",
}


def test_the_classifiers_name_what_the_ci_matrix_tests() -> None:
    yaml = pytest.importorskip("yaml")
    tomllib = pytest.importorskip("tomllib")
    matrix = yaml.safe_load((WORKFLOWS / "ci.yml").read_text())["jobs"]["test"]["strategy"][
        "matrix"
    ]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    classifiers = set(project["classifiers"])
    systems = {OPERATING_SYSTEMS[os_.split("-")[0]] for os_ in matrix["os"]}
    assert systems == {c for c in classifiers if c.startswith("Operating System ::")}
    assert "Operating System :: OS Independent" not in classifiers
    versions = set(matrix["python"])
    prefix = "Programming Language :: Python :: 3."
    assert versions == {
        c.removeprefix("Programming Language :: Python :: ")
        for c in classifiers
        if c.startswith(prefix)
    }
    assert project["requires-python"] == ">=" + min(
        versions, key=lambda v: tuple(map(int, v.split(".")))
    )
    # scripts/check installs the wheel on the other versions of the matrix.
    others = re.search(r"^OTHER_PYTHONS=\((.*)\)$", (ROOT / "scripts" / "check").read_text(), re.M)
    assert others is not None and set(others.group(1).split()) < versions


def test_tests_run_against_an_installed_ecarte_when_asked() -> None:
    """ECARTE_TEST_WHEEL=1 with the checkout's package on the path stops the run at once."""
    env = {**os.environ, "ECARTE_TEST_WHEEL": "1", "PYTHONPATH": str(PACKAGE.parent)}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_packaging.py",
            "-k",
            "changelog",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert out.returncode != 0
    assert "the checkout's ecarte is imported" in out.stdout + out.stderr


@pytest.mark.skipif(not os.environ.get("ECARTE_TEST_WHEEL"), reason="ECARTE_TEST_WHEEL=1 runs it")
def test_the_suite_imports_the_installed_package() -> None:
    for module in (ecarte, ecarte._core):
        where = Path(module.__file__ or "").resolve()
        # Not the source tree (scripts/check's venv may sit in the checkout's target/).
        assert ROOT / "python" not in where.parents
        assert Path(sys.prefix).resolve() in where.parents


def wheel() -> zipfile.ZipFile:
    if not os.environ.get("ECARTE_WHEEL"):
        pytest.skip("scripts/check wheel builds the wheel and names it in ECARTE_WHEEL")
    return zipfile.ZipFile(os.environ["ECARTE_WHEEL"])


def test_the_wheel_holds_every_file_of_the_package() -> None:
    names = set(wheel().namelist())
    missing = [name for name in package_files() if name not in names]
    assert not missing
    for shipped in (
        "ecarte/py.typed",
        "ecarte/_core/__init__.pyi",
        "ecarte/_core/duel.pyi",
        "ecarte/_core/bank.pyi",
        "ecarte/data/solver_positions_v2.jsonl",
        "ecarte/web/static/index.html",
    ):
        assert shipped in names
    assert any(re.fullmatch(r"ecarte/_core\..*(so|pyd)", name) for name in names)


def test_the_wheel_is_abi3_and_tagged_for_manylinux_on_linux() -> None:
    name = Path(wheel().filename or "").name
    # One wheel on CPython's stable ABI serves 3.10 and later (docs/packaging.md).
    assert "-cp310-abi3-" in name, name
    if sys.platform.startswith("linux"):
        assert re.search(r"-manylinux_2_\d+_\w+\.whl$", name), name
    assert "linux_x86_64.whl" not in name.replace("manylinux", "")


def test_the_sdist_holds_what_a_build_from_source_needs() -> None:
    if not os.environ.get("ECARTE_SDIST"):
        pytest.skip("scripts/check wheel builds the sdist and names it in ECARTE_SDIST")
    with tarfile.open(os.environ["ECARTE_SDIST"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    needed = ["Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "rust/src/lib.rs"]
    needed += [f"python/{name}" for name in package_files()]
    assert [name for name in needed if name not in names] == []


CHECK = ROOT / "scripts" / "check"


@pytest.mark.skipif(os.name == "nt", reason="scripts/check is a bash script")
def test_check_refuses_an_unknown_part() -> None:
    out = subprocess.run([str(CHECK), "lnt"], capture_output=True, text=True, check=False)
    assert out.returncode == 2 and "usage: scripts/check" in out.stderr


@pytest.mark.skipif(os.name == "nt", reason="scripts/check is a bash script")
@pytest.mark.parametrize("broken", [False, True])
def test_check_lint_runs_actionlint_over_the_workflows(tmp_path: Path, broken: bool) -> None:
    """scripts/check lint, in a copy of the checkout's workflows, with every other linter
    stubbed out: it passes on the workflows as they are and fails when one is broken."""
    if shutil.which("actionlint") is None:
        pytest.skip("actionlint (the test extra) is not installed")
    (tmp_path / "scripts").mkdir()
    shutil.copy(CHECK, tmp_path / "scripts" / "check")
    shutil.copytree(WORKFLOWS, tmp_path / ".github" / "workflows")
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for tool in ("cargo", "ruff", "python", "mypy"):
        (stubs / tool).write_text("#!/bin/sh\nexit 0\n")
        (stubs / tool).chmod(0o755)
    if broken:
        ci = tmp_path / ".github" / "workflows" / "ci.yml"
        ci.write_text(
            ci.read_text().replace("runs-on: ${{ matrix.os }}", "runs-on: ${{ matrix.system }}")
        )
    env = {
        **os.environ,
        "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}",
        "CARGO_TARGET_DIR": str(tmp_path / "target"),
    }
    out = subprocess.run(
        [str(tmp_path / "scripts" / "check"), "lint"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if broken:
        assert out.returncode != 0
        assert "matrix.system" in out.stdout + out.stderr
    else:
        assert out.returncode == 0, out.stdout + out.stderr
        assert "actionlint" in out.stdout + out.stderr
