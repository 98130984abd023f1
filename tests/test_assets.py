"""Files a campaign publishes as they are: a post's images and files beside it (a
page bundle, or files next to the post), and the campaign's static/ folder."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.content import markdown

from conftest import post

PNG = b"\x89PNG\r\n\x1a\n fake image bytes"


def build(run, root):
    return run("build", "--source", root, "--out", root / "_site")


def test_a_page_bundle_and_a_plain_post_get_the_files_they_name(campaign, run):
    root = campaign({
        "content/posts/2026/04/07-bundle/index.md": post(
            title="Bundle", date="2026-04-07", body="![The fleet](photo.png)\n\n"
            "[The orders](orders%20sheet.pdf) and [a page](/tags/)"),
        "content/posts/2026/04/07-bundle/photo.png": PNG,
        "content/posts/2026/04/07-bundle/orders sheet.pdf": b"%PDF-1.4",
        "content/posts/2026/04/08-plain.md": post(title="Plain", date="2026-04-08",
                                                  body="![Map](maps/t005.png)"),
        "content/posts/2026/04/maps/t005.png": PNG + b"2",
    })
    code, _, err = build(run, root)
    assert (code, err) == (0, "")
    site = root / "_site"
    page = (site / "posts/2026/04/07/bundle/index.html").read_text(encoding="utf-8")
    assert '<img src="photo.png" alt="The fleet">' in page
    assert (site / "posts/2026/04/07/bundle/photo.png").read_bytes() == PNG
    assert (site / "posts/2026/04/07/bundle/orders sheet.pdf").read_bytes() == b"%PDF-1.4"
    assert (site / "posts/2026/04/08/plain/maps/t005.png").read_bytes() == PNG + b"2"
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert 'src="https://example.org/camp/posts/2026/04/07/bundle/photo.png"' in feed


def test_an_image_that_is_not_there_is_an_error_at_its_line_and_nothing_is_written(
        campaign, run):
    root = campaign({
        "content/posts/2026/04/09-x.md": post(title="X", date="2026-04-09",
                                              body="Text.\n\nSee ![the map](mapp.png)."),
        "content/posts/2026/04/10-y.md": post(title="Y", date="2026-04-10",
                                              body="![up](../../secret.png)"),
    })
    code, out, err = build(run, root)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "content/posts/2026/04/09-x.md:8:16: image 'mapp.png' not found; expected the file "
        "content/posts/2026/04/mapp.png beside the post",
        "content/posts/2026/04/10-y.md:6:7: image '../../secret.png' is outside the post's "
        "folder; expected a file beside the post or in a folder below it",
        "ftpress: 2 problems found; nothing was written"]
    assert not (root / "_site").exists()
    assert run("check", "--source", root)[0] == 1


def test_the_campaigns_static_folder_is_copied_to_the_root_of_the_site(campaign, run):
    root = campaign({
        "content/posts/2026/04/07-a.md": post(),
        "static/img/crest.png": PNG,
        "static/CNAME": "reach.example.org\n",
        "static/.hidden": "not published",
    })
    assert build(run, root)[0] == 0
    assert (root / "_site/img/crest.png").read_bytes() == PNG
    assert (root / "_site/CNAME").read_text() == "reach.example.org\n"
    assert not (root / "_site/.hidden").exists()
    assert (root / "_site/static/style.css").is_file()  # the theme's own static files stay


def test_a_static_file_that_would_replace_a_page_is_refused(campaign, run):
    root = campaign({"content/posts/2026/04/07-a.md": post(), "static/index.html": "<p>x"})
    code, _, err = build(run, root)
    assert code == 1 and "index.html" in err and "static/index.html" in err


#: Pieces a post's text is made of, links of every form among them.
_PIECES = st.sampled_from([
    "[a](photo.png)", "![a](photo.png)", "[a](<my photo.png>)", "[a]( maps/t.png \"t\")",
    "[a](/posts/x/)", "[a](https://x.org/)", "[a](#top)", "[a](?q=1)", "[a]()",
    "[a][r]", "[r]: photo.png", "[r]:\n  other.png", "[^1]: a note", "[^1]",
    "[a](a_(b).png)", "[a](ph\\_oto.png)", "[a](&#x70;hoto.png)", "[[rule:9.2]]",
    "![a](https://x.org/i.png)", "[a] (photo.png)", "mailto:x@y.z", "*b*", "`](x.png)`",
    "\n", "\n\n", " ", "> ", "- ", "1. ", "text", "]", "(", ":", "<", ">"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_a_text_said_to_name_no_file_names_none(text):
    """The cheap scan that spares a post its second parse never misses a file the
    parse finds."""
    assert markdown.may_name_a_file(text) or markdown.targets_parsed(text) == []


def test_the_scan_spares_what_it_should():
    assert not markdown.may_name_a_file("See [an earlier post](/posts/2026/04/07/x/), "
                                        "[[rule:9.2]] and [^1].\n\n[^1]: A note.")
    assert markdown.may_name_a_file("![the fleet](fleet.png)")
    assert markdown.may_name_a_file("[r]: notes.pdf")
    # A destination that runs on past the next link does not hide it.
    assert markdown.may_name_a_file("](mailto:x@y.z[a](photo.png)")


#: The scan's plain definition: at each character, a footnote label "[^…]:", a "]"
#: before an inline destination (group 1), or a reference definition's "]:" (group 2).
_PLAIN_DESTINATION = re.compile(r"\[\^[^\]\n]*\]:|\](?=\(\s*<?([^\s)>]*))|(\]:)")


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_fast_scan_finds_what_the_plain_one_finds(text):
    """The scan that jumps from bracket to bracket matches exactly where the plain
    pattern does, with the same destination and the same definitions."""
    fast = [(m.span(), m.group(1), bool(m.group(2)))
            for m in markdown._DESTINATION.finditer(text)]
    plain = [(m.span(), m.group(1), bool(m.group(2))) for m in _PLAIN_DESTINATION.finditer(text)]
    assert fast == plain
