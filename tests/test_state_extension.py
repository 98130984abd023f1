"""What a ruleset adds to the state (ftpress.state.extension): its keys stand in the
state files beside the shared ones, are checked by the ruleset's own models at their
lines, read back exactly as written, and are refused at their line in a campaign of
another ruleset."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest
from demos import FTCAMP02, SCT

from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.rules.ftcamp02.state_ext import of_map
from ftpress.rules.ftcamp02.state_ext import of_system as ftcamp02_system
from ftpress.rules.sct.state_ext import of_system as sct_system
from ftpress.site.schema_export import all_schemas
from ftpress.state.display import Display
from ftpress.state.extension import RECORDS, Extension, StateExtension, extension_of
from ftpress.state.files import KINDS
from ftpress.state.model import CONFIG, Point
from ftpress.state.save import save_state
from ftpress.store.campaign import display_of, load_folder

from conftest import REPO
from statefiles import CAMPAIGN, MAP, STATE, sub

#: The keys every system may hold, whatever the ruleset.
SHARED_SYSTEM_KEYS = "id, name, hex, owner, income, idp, idp_full, depot, base, shipyard"


def example(tmp_path: Path, name: str) -> Path:
    """The example's own files, whole (a sealed one's twins opened), to edit."""
    return {"sct": SCT, "ftcamp02": FTCAMP02}[name].copy(tmp_path / name)


def edit(root: Path, rel: str, old: str, new: str) -> None:
    file = root / rel
    text = file.read_text()
    assert old in text, old
    file.write_text(text.replace(old, new, 1))


def test_the_extension_keys_are_read_into_the_rulesets_records():
    sct = load_folder(REPO / "examples/sct").state
    cedar = sct.system("cedar-point")
    assert cedar is not None and cedar.hex is None
    assert sct_system(cedar).position == Point(0, 8, 3)
    assert (sct_system(cedar).spectral, sct_system(cedar).nation) == ("M", "nac")
    camp = FTCAMP02.state()
    heron = camp.system("heron")
    assert heron is not None
    assert (ftcamp02_system(heron).bio, ftcamp02_system(heron).loyalty) == (20, 10)
    assert of_map(camp.map).dust


def test_a_key_of_another_ruleset_is_refused_at_its_line(tmp_path, campaign, run):
    """ftcamp02's Biology rate in an sct map, sct's spectral class in an ftcamp02 map,
    and ftcamp02's loyalty in an ftc2007 one: each an unknown key, at its line, and the
    keys the campaign's own ruleset allows listed."""
    sct = example(tmp_path, "sct")
    edit(sct, "state/map.yaml", "    spectral: M\n", "    spectral: M\n    bio: 4\n")
    code, out, err = run("check", "--source", sct)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"state/map.yaml:14:5: unknown key 'bio'; expected one of: {SHARED_SYSTEM_KEYS}, "
        "position, spectral, nation, works",
        "ftpress: 1 problem in the campaign"]

    camp = example(tmp_path, "ftcamp02")
    edit(camp, "state/map.yaml", "    bio: 20\n", "    bio: 20\n    spectral: G\n")
    code, _, err = run("check", "--source", camp)
    assert code == 1
    assert err.splitlines()[0] == (
        f"state/map.yaml:11:5: unknown key 'spectral'; expected one of: {SHARED_SYSTEM_KEYS}, "
        "bio, loyalty, claimed_by")

    demo = campaign({**STATE, "state/map.yaml": sub(MAP, "income: 90, idp: 90}",
                                                    "income: 90, idp: 90, loyalty: 3}")})
    code, _, err = run("check", "--source", demo)
    assert code == 1
    assert err.splitlines()[0] == (
        f"state/map.yaml:3:74: unknown key 'loyalty'; expected one of: {SHARED_SYSTEM_KEYS}, "
        "interdicted_by, paid_income_to")


def test_the_rulesets_values_are_checked_by_its_models_at_their_lines(tmp_path, run):
    root = example(tmp_path, "sct")
    edit(root, "state/map.yaml", "    spectral: M\n", "    spectral: Q\n    positon: 3\n"
         "    ext: {}\n")
    code, _, err = run("check", "--source", root)
    assert code == 1
    assert err.splitlines() == [
        "state/map.yaml:13:15: systems[0].spectral: input should be 'O', 'B', 'A', 'F', 'G', "
        "'K' or 'M', got 'Q'",
        "state/map.yaml:14:5: unknown key 'positon'; did you mean 'position'?",
        "state/map.yaml:15:5: unknown key 'ext'; a ruleset's keys stand beside the others",
        "ftpress: 3 problems in the campaign"]


def test_a_ships_extension_value_is_located_in_its_flow_mapping(tmp_path, run):
    """A ruleset's key on a ship written on one line is found at its column, and its
    place in the file is named as for a shared key."""
    root = example(tmp_path, "ftcamp02")
    edit(root, "state/groups.yaml", "{name: NAC Destroyer 1-2, design: destroyer}",
         "{name: NAC Destroyer 1-2, design: destroyer, crew_lost: -1, crippled: maybe}")
    code, _, err = run("check", "--source", root)
    assert code == 1
    assert err.splitlines() == [
        "state/groups.yaml:8:65: groups[0].ships[1].crew_lost: input should be greater than "
        "or equal to 0, got -1",
        "state/groups.yaml:8:79: groups[0].ships[1].crippled: input should be a valid "
        "boolean, unable to interpret input, got 'maybe'",
        "ftpress: 2 problems in the campaign"]


def test_a_broken_campaign_file_still_reads_the_others_with_its_ruleset(tmp_path, run):
    """campaign.yaml with a problem of its own still names the ruleset: the map's sct
    keys are not all reported as unknown besides."""
    root = example(tmp_path, "sct")
    edit(root, "state/campaign.yaml", "  seed: 2000\n", "  seed: -5\n")
    code, _, err = run("check", "--source", root)
    assert code == 1
    assert err.splitlines() == [
        "state/campaign.yaml:13:9: setup.seed: input should be greater than or equal to 0, "
        "got -5", "ftpress: 1 problem in the campaign"]


@pytest.mark.parametrize("name", ["sct", "ftcamp02"])
def test_an_examples_state_reads_back_byte_for_byte(tmp_path, name):
    """The saver writes the extension's keys back where the file had them."""
    source = {"sct": SCT, "ftcamp02": FTCAMP02}[name].copy(tmp_path / "whole")
    loaded = load_folder(source).state
    base_url = next(line.split()[1] for line in (source / "site.yaml").read_text().splitlines()
                    if line.startswith("base_url:"))
    save_state(tmp_path / "out", loaded, base_url=base_url)
    for kind in KINDS.values():
        assert (tmp_path / "out" / "state" / kind.file).read_bytes() == \
            (source / "state" / kind.file).read_bytes(), kind.file
    assert load_folder(tmp_path / "out").state == loaded


def test_every_rulesets_extension_is_registered_and_extends_known_records():
    assert set(STATE_EXTENSIONS) == {n for n, r in RULESETS.items()
                                     if r.state_extension is not None}
    for name, extension in STATE_EXTENSIONS.items():
        assert extension.name == name
        assert set(extension.records) <= set(RECORDS)


def test_the_published_schema_names_only_the_campaigns_ruleset_keys():
    def system_keys(ruleset: str | None) -> set[str]:
        return set(all_schemas(None, ruleset)["map"]["$defs"]["System"]["properties"])

    shared = system_keys(None)
    assert "ext" not in shared and "position" not in shared and "bio" not in shared
    assert system_keys("sct") - shared == {"position", "spectral", "nation", "works"}
    assert system_keys("ftcamp02") - shared == {"bio", "loyalty", "claimed_by"}
    assert system_keys("ftc2007") - shared == {"interdicted_by", "paid_income_to"}


def test_only_ftc2007_queues_spares_and_defence_works():
    """§6.2.1 spares and §10.5 defence works are ftc2007's: its queues.yaml holds them
    beside the shared slips and repairs, sct's and ftcamp02's have no such key."""
    def queue_keys(ruleset: str | None) -> set[str]:
        return set(all_schemas(None, ruleset)["queues"]["properties"])

    assert queue_keys(None) == {"keels", "repairs"}
    assert queue_keys("sct") == queue_keys("ftcamp02") == {"keels", "repairs"}
    assert queue_keys("ftc2007") == {"keels", "repairs", "spares", "defences"}



@dataclass(frozen=True, slots=True)
class LitSystem(Extension):
    """A fourth ruleset's addition to a system: whether its beacon is lit."""

    __pydantic_config__ = CONFIG

    lit: bool = False


def test_a_fourth_ruleset_adds_state_by_registering_alone(campaign, monkeypatch):
    """A ruleset that keeps more about a system declares it in its own records and
    display; registering it is all the loader and the renderer need."""
    display = Display(notes=lambda s: ("lit",) if extension_of(s, LitSystem).lit else ())
    tiny = dataclasses.replace(RULESETS["ftc2007"], name="tiny", check_state=lambda _: [],
                               state_extension=StateExtension("tiny", {"system": LitSystem}),
                               display=display)
    monkeypatch.setitem(RULESETS, "tiny", tiny)
    root = campaign({**STATE, "state/campaign.yaml": sub(CAMPAIGN, "ruleset: ftc2007",
                                                         "ruleset: tiny"),
                     "state/map.yaml": sub(MAP, "income: 90, idp: 90}",
                                           "income: 90, idp: 90, lit: true}")})
    state = load_folder(root).state
    home = state.system("home")
    assert home is not None and extension_of(home, LitSystem).lit
    assert display_of(state).notes(home) == ("lit",)
    assert all_schemas(None, "tiny")["map"]["$defs"]["System"]["properties"]["lit"] == {
        "default": False, "title": "Lit", "type": "boolean"}


def test_an_extension_record_must_default_every_field():
    """A record with no extension keys in the file holds the defaults, so there must be
    some: a ruleset's mistake here is found when it is declared, not on a user's file."""

    @dataclass(frozen=True, slots=True)
    class Bare(Extension):
        needed: int

    with pytest.raises(TypeError, match="the system record Bare must be an Extension whose "
                                        r"every field has a default \(not \['needed'\]\)"):
        StateExtension("bare", {"system": Bare})
