"""svgwrite elements written out as SVG text, quickly and byte for byte as
svgwrite's own ``tostring`` writes them.

svgwrite writes a drawing by first copying every element into an ElementTree
element, then running ElementTree's serialiser, both in pure Python; for a map
of a couple of thousand elements that is most of the time it takes to draw.
:func:`svg_text` writes the common elements (groups, shapes, polylines and
polygons, texts, titles) straight from svgwrite's objects, following the same
steps (attributes sorted by name, ``None`` and empty values left out, values
turned to text as svgwrite turns them, ElementTree's escaping, ``" />"``
for an empty element), and hands any other element to ElementTree unchanged.
:func:`splice` puts text already written inside a parent element, so parts of a
map can be written once and reused (:mod:`ftpress.maps.canvas`).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree

import svgwrite.base
import svgwrite.shapes
import svgwrite.text

from ftpress.text.xmlchars import xml_chars

#: Elements whose ``get_xml`` only copies attributes and children (svgwrite's default),
#: that set their ``points`` first (polyline, polygon), or that add their text (text, tspan).
_PLAIN = svgwrite.base.BaseElement.get_xml
_POINTS = svgwrite.shapes.Polyline.get_xml
_TEXT = svgwrite.text.TSpan.get_xml


def escape_attribute(value: str) -> str:
    """An attribute's value escaped as ElementTree escapes it: as text, and quotes and
    the whitespace a parser would fold as well."""
    value = escape_text(value)
    for char, reference in _ATTRIBUTE_ONLY:
        if char in value:
            value = value.replace(char, reference)
    return value


_ATTRIBUTE_ONLY = (('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def escape_text(text: str) -> str:
    """Character data escaped as ElementTree escapes it, held to the characters XML
    can hold (:func:`~ftpress.text.xmlchars.xml_chars`)."""
    text = xml_chars(text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def svg_text(element: svgwrite.base.BaseElement | svgwrite.base.Title) -> str:
    """``element`` and everything in it as SVG text: exactly what svgwrite's
    ``tostring`` gives for it (UTF-8 text, where a character UTF-8 cannot hold, a
    lone surrogate, is written as a character reference)."""
    out: list[str] = []
    _write(element, out)
    text = "".join(out)
    return text if text.isascii() else text.encode("utf-8", "xmlcharrefreplace").decode("utf-8")


def splice(element: svgwrite.base.BaseElement, parts: Sequence[str]) -> str:
    """``element`` as :func:`svg_text` writes it, with the already written ``parts``
    after its own children: the text svgwrite would write had their elements been
    added to ``element`` in that order."""
    text = svg_text(element)
    if not parts:
        return text
    inner = "".join(parts)
    if text.endswith(" />"):  # no children of its own: closed short
        return f"{text[:-3]}>{inner}</{element.elementname}>"
    close = f"</{element.elementname}>"
    return text[:-len(close)] + inner + close


def _write(element: svgwrite.base.BaseElement | svgwrite.base.Title, out: list[str]) -> None:
    if isinstance(element, svgwrite.base.Title):  # <title>, <desc>: text only
        text = element.xml.text
        out.append(f"<{element.elementname}>{escape_text(text)}</{element.elementname}>"
                   if text else f"<{element.elementname} />")
        return
    get_xml = type(element).get_xml
    if get_xml is _POINTS:
        element.attribs["points"] = element.points_to_string(element.points)
    elif (get_xml is not _PLAIN and get_xml is not _TEXT) or element.debug \
            or element.profile == "tiny":
        # Anything else (the drawing itself, CDATA, references, an element that
        # validates or rounds its values as it is written) as svgwrite writes it.
        out.append(xml_chars(ElementTree.tostring(element.get_xml(), encoding="unicode")))
        return
    name = element.elementname
    out.append("<" + name)
    for attribute, value in sorted(element.attribs.items()):
        # Not validating and not "tiny", svgwrite's value_to_string is str(); a
        # number's text never holds a character that needs escaping.
        if type(value) is float or type(value) is int:
            out.append(f' {attribute}="{value}"')
        elif value is not None and (value := str(value)):
            out.append(f' {attribute}="{escape_attribute(value)}"')
    text = str(element.text) if get_xml is _TEXT else ""
    if text or element.elements:
        out.append(">")
        if text:
            out.append(escape_text(text))
        for child in element.elements:
            _write(child, out)
        out.append(f"</{name}>")
    else:
        out.append(" />")
