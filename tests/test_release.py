"""A release people can install: the package's metadata, the requirement
``ftpress init`` writes, and a new campaign's workflow install step run against
ftpress's own wheel served from a folder, as PyPI would serve it."""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest
import yaml

from ftpress import __version__
from ftpress.github.requirement import release_wheel

from conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_pypi_describes_ftpress_from_pip_install_and_the_readme_keeps_its_first_commands():
    readme = PYPROJECT["readme"]
    description = (REPO / readme["file"]).read_text().splitlines()
    assert readme["content-type"] == "text/markdown"
    assert description[:2] == ["```sh", "pip install ftpress"]
    assert (REPO / "README.md").read_text().splitlines()[:9] == [
        "# ftpress", "",
        "ftpress runs a Full Thrust strategic campaign out of a Git repository and publishes "
        "it as a static website: the umpire's dated posts and rulings, the rulebook, and every "
        "turn's report.", "", "```sh",
        "python -m venv .venv && . .venv/bin/activate   # a virtualenv for ftpress and its "
        "test tools",
        "pip install -e '.[test]' && ftpress serve      # build the demo campaign and serve it "
        "at http://127.0.0.1:8000/ftpress/",
        "python -m pytest -n auto                       # run the tests, on every core", "```"]


def test_ci_runs_the_readmes_commands_as_they_are_written():
    """.ci/run makes the README's virtualenv, installs as the README says (all but
    ``ftpress serve``), lints, type-checks, then runs the README's test command."""
    block = (REPO / "README.md").read_text().split("```sh\n", 1)[1].split("```", 1)[0]
    readme = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [line for line in (REPO / ".ci/run").read_text().splitlines()
                if line and not line.startswith((" ", "#"))]
    tail = commands[commands.index(readme[0]):]
    assert tail == [readme[0], readme[1].removesuffix(" && ftpress serve"),
                    "ruff check ftpress tests", "python -m mypy", readme[2]]
    tools = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0]
             for r in PYPROJECT["optional-dependencies"]["test"]}
    assert {"pytest", "pytest-xdist", "ruff", "mypy"} <= tools


def test_the_package_says_where_it_lives_and_what_it_is():
    assert set(PYPROJECT["urls"]) == {"Homepage", "Source", "Issues", "Releases"}
    assert PYPROJECT["license"] == "MIT" and PYPROJECT["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
    assert "Programming Language :: Python :: 3.11" in PYPROJECT["classifiers"]


@pytest.mark.parametrize(("spec", "line"), [
    (None, f"ftpress @ git+https://github.com/ftpress/ftpress@v{__version__}"),
    ("release", f"ftpress @ https://github.com/ftpress/ftpress/releases/download/v{__version__}/"
     f"ftpress-{__version__}-py3-none-any.whl"),
    ("0.2.0", "ftpress==0.2.0"),
    ("1.0.0rc1", "ftpress==1.0.0rc1"),
    ("git+https://github.com/you/ftpress@v0.2.0", "ftpress @ git+https://github.com/you/ftpress@v0.2.0"),
    ("https://example.org/dl/ftpress-0.2.0-py3-none-any.whl",
     "ftpress @ https://example.org/dl/ftpress-0.2.0-py3-none-any.whl"),
])
def test_init_writes_the_requirement_asked_for(tmp_path, run, spec, line):
    extra = [] if spec is None else ["--ftpress-requirement", spec]
    code, _, err = run("init", tmp_path / "c", "--players", "nac,nsl", "--seed", "1", *extra)
    assert (code, err) == (0, "")
    assert (tmp_path / "c/requirements.txt").read_text().splitlines()[-1] == line


@pytest.mark.parametrize(("spec", "message"), [
    ("git+https://github.com/you/ftpress",
     "ftpress: --ftpress-requirement 'git+https://github.com/you/ftpress': a git URL must name "
     "the tag to install, such as git+https://github.com/you/ftpress@v0.1.0"),
    ("ftpress>=1", "ftpress: --ftpress-requirement 'ftpress>=1': expected a version (0.1.0), "
     "'release' (the wheel of the GitHub release), a git URL with a tag "
     "(git+https://github.com/ftpress/ftpress@v0.1.0) or a wheel's URL "
     "(https://example.org/ftpress-0.1.0-py3-none-any.whl)"),
    ("0.1.0\n--index-url=https://evil.example/", "ftpress: --ftpress-requirement "
     "'0.1.0\\n--index-url=https://evil.example/': expected a version (0.1.0), 'release' (the "
     "wheel of the GitHub release), a git URL with a tag "
     "(git+https://github.com/ftpress/ftpress@v0.1.0) or a wheel's URL "
     "(https://example.org/ftpress-0.1.0-py3-none-any.whl)"),
])
def test_a_requirement_that_would_not_install_one_fixed_ftpress_is_refused(tmp_path, run, spec,
                                                                            message):
    code, _, err = run("init", tmp_path / "c", "--players", "nac", "--ftpress-requirement", spec)
    assert (code, err.strip()) == (1, message)
    assert not (tmp_path / "c").exists()


def install_steps(workflow: Path) -> set[str]:
    jobs = yaml.safe_load(workflow.read_text())["jobs"].values()
    return {s["run"] for job in jobs for s in job.get("steps", [])
            if s.get("name", "").startswith("Install ftpress")}


def build_wheel(wheels: Path) -> Path:
    """ftpress's wheel, built from this checkout into the folder ``wheels``."""
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                            "--wheel-dir", wheels, REPO], capture_output=True, text=True,
                           timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.iterdir()
    return wheel


def runner(env_dir: Path, wheels: Path) -> dict[str, str]:
    """A fresh virtualenv standing for the runner, and the environment its steps run in.

    ftpress's dependencies come from the interpreter the tests run under (there is no
    network to fetch them): the runner's site-packages names this interpreter's own
    site-packages folders after itself. ``system_site_packages`` would not do: it
    points at the base Python, not at the virtualenv the tests may run in. The folders
    are named as plain paths, so their ``.pth`` files (an editable ftpress among them)
    are not run. pip is told to install ftpress itself even though an ftpress of the
    same version is visible, and to leave the dependencies to the probe below; the
    package index is the folder of wheels."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    own = sysconfig.get_path("purelib", scheme="venv",
                             vars={"base": str(env_dir), "platbase": str(env_dir)})
    ours = [*site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        ours.append(site.getusersitepackages())
    (Path(own) / "_runner_borrows.pth").write_text("".join(f"{d}\n" for d in ours))
    environ = {**os.environ, "PATH": f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}",
               "VIRTUAL_ENV": str(env_dir), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels),
               "PIP_IGNORE_INSTALLED": "1", "PIP_NO_DEPS": "1",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    environ.pop("PYTHONPATH", None)
    return environ


def install_ftpress(campaign: Path, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The campaign's workflows' install step, run as the runner runs it."""
    steps = set().union(*map(install_steps, (campaign / ".github/workflows").glob("*.yml")))
    assert steps == {"python -m pip install -r requirements.txt"}
    (step,) = steps
    done = subprocess.run(["bash", "-e", "-c", step], cwd=campaign, env=environ,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.release
def test_a_new_campaign_installs_ftpress_from_its_wheel(tmp_path, run):
    wheels = tmp_path / "index"
    assert build_wheel(wheels).name == f"ftpress-{__version__}-py3-none-any.whl"
    # What 'init --ftpress-requirement release' names is what the release attaches.
    assert release_wheel(__version__).endswith(f"/v{__version__}/{next(wheels.iterdir()).name}")
    campaign = tmp_path / "campaign"
    # The wheel from the folder of wheels, as PyPI serves it once released.
    assert run("init", campaign, "--players", "nac,nsl", "--seed", "3",
               "--ftpress-requirement", __version__)[0] == 0
    env_dir = tmp_path / "runner"
    environ = runner(env_dir, wheels)
    done = install_ftpress(campaign, environ)
    assert f"Successfully installed ftpress-{__version__}" in done.stdout

    bin_dir = env_dir / "bin"
    probe = subprocess.run([bin_dir / "python", "-c", _PROBE], cwd=campaign, env=environ,
                           capture_output=True, text=True, timeout=60, check=False)
    assert probe.returncode == 0, probe.stderr
    where, unmet = probe.stdout.splitlines()
    assert Path(where).is_relative_to(env_dir) and unmet == "unmet: []"
    checked = subprocess.run([bin_dir / "ftpress", "check"], cwd=campaign, env=environ,
                             capture_output=True, text=True, timeout=120, check=False)
    assert (checked.returncode, checked.stderr) == (0, "")


#: Run in the runner's interpreter: where ftpress came from, and which of its declared
#: dependencies are missing or at a version the metadata excludes.
_PROBE = """
import importlib.metadata as md, ftpress
from pip._vendor.packaging.requirements import Requirement
print(ftpress.__file__)
unmet = []
for text in md.requires("ftpress") or []:
    req = Requirement(text)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    try:
        ok = req.specifier.contains(md.version(req.name), prereleases=True)
    except md.PackageNotFoundError:
        ok = False
    if not ok:
        unmet.append(text)
print("unmet:", unmet)
"""
