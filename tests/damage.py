"""Damage such as a careless edit or a bad merge does to a campaign's YAML or Markdown
file, drawn by hypothesis: for the tests that any damage fails cleanly."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

#: What a bad edit puts in a line: YAML's odd scalars and tags, anchors, block
#: indicators, unclosed quotes and brackets, control characters, a path out of the site.
WHAT = ("-1", "0", "[]", "{}", "null", "~", "'" + "x" * 300 + "'", "2026-13-45", "1e309",
        ".nan", "yes", "!!python/object:os.system", "&a x", "*a", "<<: {}", '"\\u0000"',
        "12:30", "-", "? x", "|", ">-", "../../../etc/passwd", "9" * 30, "[1, [2, [3]]]",
        "{a: 1}", "0x1F", "+.inf", '"', "'", "#", "[", "{", "\x07", "\ufeff", "%", "`",
        # What a hostile player writes: nesting past any limit, numbers past Python's,
        # control and bidi characters raw and escaped, a forged log line, a huge value.
        "[" * 999, "{a: " * 300, "- " * 400, "9" * 5000, "(" + "9" * 5000 + ", 0)",
        '"\\u202e"', '"\\e[31m"', '"\\x00"', '"\\n::error title=Forged::ok"', "\u202e",
        "\u2066x\u2069", "\u200b", "x" * 70_000)

#: What can happen to one line (truncate: it and everything after it are lost).
HOW = ("delete", "repeat", "value", "indent", "tab", "truncate", "insert")


@dataclass(frozen=True, slots=True)
class Damage:
    """One line of the file at ``path`` damaged ``how``; ``where`` in 0..1 picks the line."""

    path: str
    how: str
    where: float
    what: str

    def apply(self, root: Path) -> None:
        target = root / self.path
        target.write_text(self.damaged(target.read_text(encoding="utf-8")), encoding="utf-8")

    def damaged(self, text: str) -> str:
        lines = text.split("\n")
        i = min(int(self.where * len(lines)), len(lines) - 1)
        line = lines[i]
        if self.how == "delete":
            del lines[i]
        elif self.how == "repeat":
            lines.insert(i, line)
        elif self.how == "value" and ":" in line:
            lines[i] = f"{line.partition(':')[0]}: {self.what}"
        elif self.how == "indent":
            lines[i] = "   " + line
        elif self.how == "tab":
            lines[i] = "\t" + line
        elif self.how == "truncate":
            del lines[i:]
        else:  # inserted mid-line
            lines[i] = line[:len(line) // 2] + self.what + line[len(line) // 2:]
        return "\n".join(lines)


def damage(paths: list[str]) -> st.SearchStrategy[Damage]:
    """Damage to one of ``paths`` (relative to a campaign's root)."""
    return st.builds(Damage, st.sampled_from(paths), st.sampled_from(HOW), st.floats(0, 1),
                     st.sampled_from(WHAT))
