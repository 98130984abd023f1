"""The example campaigns of this repository as the tests read them: the ftc2007 demo
at the root and the one-ruleset demos under examples/, each checked, re-resolved
turn by turn, built and link-checked the same way."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from ftpress.cli import main
from ftpress.secrecy.agekeys import read_identity
from ftpress.secrecy.twins import UmpireKey
from ftpress.state.model import State
from ftpress.state.turns import SETUP, TURNS_DIR
from ftpress.store.campaign import load_folder

from conftest import DEMO_NOW, REPO, demo_file, unsealed
from sitecheck import Site


@dataclass(frozen=True, slots=True)
class Demo:
    """One example campaign, and the moment it is built "as of"."""

    root: Path
    now: str

    @property
    def base_url(self) -> str:
        return yaml.safe_load((self.root / "site.yaml").read_text())["base_url"]

    @property
    def key_file(self) -> Path | None:
        """The demo umpire's key (committed in ``demo-keys/``: the demo is sealed only to
        show how a sealed campaign is stored), or None for an open campaign."""
        path = self.root / "demo-keys" / "umpire.key"
        return path if path.is_file() else None

    @property
    def umpire(self) -> UmpireKey | None:
        """The umpire's key, read: every file of a sealed demo is opened with it."""
        path = self.key_file
        return UmpireKey(tuple(read_identity(path)), str(path)) if path is not None else None

    def key_options(self) -> list[str]:
        """``--identity`` and the demo umpire's key, for a sealed demo."""
        return ["--identity", str(self.key_file)] if self.key_file is not None else []

    @property
    def turns(self) -> list[str]:
        """The recorded turns, in order (the setup left out)."""
        return sorted(p.name for p in (self.root / TURNS_DIR).iterdir()
                      if p.is_dir() and p.name != SETUP)

    def copy(self, dest: Path) -> Path:
        """The campaign's own files (no build, cache or code), copied into ``dest``, as an
        open campaign: a sealed demo's whole files (its twins opened), to play with."""
        self.sealed_copy(dest)
        if self.key_file is None:
            return dest
        (dest / ".ftpress-umpire-key").unlink()
        (dest / ".ftpress-secret").unlink()  # an open campaign may play without one
        # Battle results, kept sealed alone in a sealed campaign: in plain in an open one.
        for twin in sorted([*(dest / "state").rglob("battles/*.yaml.age"),
                            *(dest / "battles").rglob("*.yaml.age")]):
            plain = twin.with_name(twin.name.removesuffix(".age"))
            plain.write_bytes(demo_file(plain.relative_to(dest).as_posix(), self.root))
            twin.unlink()
        for twin in sorted((dest / "state").rglob("*.age")):
            plain = twin.with_name(twin.name.removesuffix(".age"))
            if plain.is_file():  # (a player's intelligence has none: an open campaign keeps none)
                rel = plain.relative_to(dest).as_posix()
                plain.write_bytes(unsealed(demo_file(rel, self.root)))
            twin.unlink()
        return dest

    def sealed_copy(self, dest: Path) -> Path:
        """The campaign's own files copied into ``dest`` as they are, with the demo
        umpire's key as the copy's key file (the umpire's checkout)."""
        for name in ("site.yaml", "content", "state", "orders", "battles", "themes",
                     "demo-keys"):
            source = self.root / name
            if source.is_dir():
                shutil.copytree(source, dest / name)
            elif source.is_file():
                dest.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
        if self.key_file is not None:
            shutil.copy2(self.key_file, dest / ".ftpress-umpire-key")
            # and a master secret: a sealed campaign's turn is not resolved without one
            (dest / ".ftpress-secret").write_text("the demo umpire's master secret\n")
        return dest

    def state(self) -> State:
        """The whole current state (a sealed demo's read from its twins)."""
        return load_folder(self.root, umpire=self.umpire).state

    def build(self, out: Path, *options: str) -> Path:
        """The site built into ``out`` (``--view umpire`` and the like as ``options``)."""
        keys = self.key_options() if "umpire" in options else []
        assert main(["build", "--source", str(self.root), "--out", str(out),
                     "--now", self.now, *options, *keys]) == 0
        return out

    def build_once(self, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
        """The public site, built into a fresh folder for a module-scoped fixture."""
        return self.build(tmp_path_factory.mktemp(name) / "_site")

    def assert_checks_clean(self, capsys: pytest.CaptureFixture[str]) -> None:
        code = main(["check", "--source", str(self.root), *self.key_options()])
        captured = capsys.readouterr()
        assert (code, captured.out, captured.err) == (
            0, "checked the campaign: no problems\n", "")

    def assert_turn_verifies(self, turn: str, capsys: pytest.CaptureFixture[str]) -> None:
        """``ftpress turn --verify``: re-resolving the turn gives its record exactly."""
        assert main(["turn", "--verify", turn, "--source", str(self.root),
                     *self.key_options()]) == 0
        assert capsys.readouterr().out == (f"verified {turn}: re-resolving it gives the "
                                           "recorded result exactly\n")

    def assert_links_resolve(self, built: Path) -> Site:
        """Every internal link and anchor of the built site resolves; the site read."""
        site = Site(built, self.base_url)
        assert list(site.pages())
        assert site.broken_links() == []
        return site


#: The ftc2007 demo campaign at the root of the repository.
FTC2007 = Demo(REPO, DEMO_NOW)
SCT = Demo(REPO / "examples" / "sct", "2026-03-23T12:00:00+00:00")
FTCAMP02 = Demo(REPO / "examples" / "ftcamp02", "2026-06-27T12:00:00+00:00")
