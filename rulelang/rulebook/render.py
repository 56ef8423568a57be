"""A ``Book`` written out: Markdown (the default, also what the terminal shows) or HTML.

Every text that came from a spec or a mod (names, labels, rule words, ruling texts, file names) is escaped
where it is written: ``html.escape`` in HTML; in Markdown the characters that would turn into markup or
raw HTML get a backslash. The terminal gets the Markdown through ``printable`` (``command.py``).
"""
from __future__ import annotations

import html
import re

from .book import Book, Item, Section

#: Characters Markdown could read as markup or raw HTML, in text that came from a spec.
_MARKUP = re.compile(r"([\\`*<>\[\]|#])")


def md(text: str) -> str:
    """A spec's text as Markdown that shows exactly that text."""
    return _MARKUP.sub(r"\\\1", text)


def anchor(ruling: str) -> str:
    """The id of a ruling's entry in the book, for links to it."""
    return "ruling-" + re.sub(r"[^a-z0-9]+", "-", ruling.lower()).strip("-")


# -- Markdown -----------------------------------------------------------------------------------

def markdown(book: Book) -> str:
    out = [f"# {md(book.title)}", "", f"*{md(book.players)}. This rulebook is made from the game's rules as "
           "they run (`rulelang rules`); where the published rulebook is silent or unclear, the rulings "
           "at the end decide.*", ""]
    if book.changes:
        out += ["## What the mods change", ""]
        for mod, changes in book.changes:
            out.append(f"- **{md(mod)}**: {md('; '.join(changes)) if changes else 'nothing the rulebook shows'}")
        out.append("")
    for section in book.sections:
        out += _md_section(section, book)
    if book.rulings:
        out += ["## Rulings", ""]
        where = _applied(book)
        for name, (text, where_in_book) in book.rulings.items():
            at = f" (rulebook: {md(where_in_book)})" if where_in_book else ""
            used = f" Applied in: {md(', '.join(where.get(name, [])))}." if where.get(name) else ""
            out.append(f"- <a id=\"{anchor(name)}\"></a>**{md(name)}**{at}: {md(text)}{used}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _md_section(section: Section, book: Book) -> list[str]:
    out = [f"## {md(section.title)}", ""]
    for line in section.intro:
        out += [md(line), ""]
    for number, item in enumerate(section.items, 1):
        out += _md_item(item, number if section.ordered else None, book)
    return out


def _md_item(item: Item, number: int | None, book: Book) -> list[str]:
    lead = f"{number}. " if number is not None and not item.title[:1].isdigit() else ""
    marks = "".join(f" *({md(mark)})*" for mark in item.marks)
    out = [f"### {lead}{md(item.title)}{marks}", ""]
    for part in item.parts:
        if part.label:
            out.append(f"*{md(part.label)}:*")
            out.append("")
        for depth, text in part.lines:
            out.append(f"{'  ' * depth}- {md(text)}" if text else "")
        out.append("")
    for name in item.rulings:
        text = book.rulings.get(name, ("", ""))[0]
        out += [f"> Ruling [{md(name)}](#{anchor(name)}): {md(text)}", ""]
    return out


def _applied(book: Book) -> dict[str, list[str]]:
    """Where each ruling applies: the titles of the items that name it."""
    where: dict[str, list[str]] = {}
    for item in book.items():
        for name in item.rulings:
            where.setdefault(name, []).append(item.title)
    return where


# -- HTML -----------------------------------------------------------------------------------------

def page(book: Book) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
           f"<title>{e(book.title)}</title>",
           "<style>body{font-family:Georgia,serif;max-width:48em;margin:2em auto;line-height:1.45}"
           "h3{margin-bottom:.2em}.part{font-style:italic}.mark{color:#a33;font-size:.8em}"
           "blockquote{color:#555;border-left:3px solid #ccc;margin:.4em 0;padding-left:.8em}</style>",
           "</head>", "<body>", f"<h1>{e(book.title)}</h1>",
           f"<p><em>{e(book.players)}. This rulebook is made from the game's rules as they run "
           "(<code>rulelang rules</code>); where the published rulebook is silent or unclear, the rulings at "
           "the end decide.</em></p>"]
    if book.changes:
        out.append("<h2>What the mods change</h2><ul>")
        for mod, changes in book.changes:
            out.append(f"<li><strong>{e(mod)}</strong>: {e('; '.join(changes)) or 'nothing the rulebook shows'}</li>")
        out.append("</ul>")
    for section in book.sections:
        out += _html_section(section, book)
    if book.rulings:
        where = _applied(book)
        out.append("<h2>Rulings</h2><ul>")
        for name, (text, where_in_book) in book.rulings.items():
            at = f" (rulebook: {e(where_in_book)})" if where_in_book else ""
            used = f" Applied in: {e(', '.join(where[name]))}." if where.get(name) else ""
            out.append(f"<li id=\"{anchor(name)}\"><strong>{e(name)}</strong>{at}: {e(text)}{used}</li>")
        out.append("</ul>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_section(section: Section, book: Book) -> list[str]:
    e = html.escape
    out = [f"<h2>{e(section.title)}</h2>"] + [f"<p>{e(line)}</p>" for line in section.intro]
    for number, item in enumerate(section.items, 1):
        lead = f"{number}. " if section.ordered and not item.title[:1].isdigit() else ""
        marks = "".join(f" <span class=\"mark\">({e(mark)})</span>" for mark in item.marks)
        out.append(f"<h3>{lead}{e(item.title)}{marks}</h3>")
        for part in item.parts:
            if part.label:
                out.append(f"<p class=\"part\">{e(part.label)}:</p>")
            out.append(_html_lines(part.lines))
        for name in item.rulings:
            text = book.rulings.get(name, ("", ""))[0]
            out.append(f"<blockquote>Ruling <a href=\"#{anchor(name)}\">{e(name)}</a>: {e(text)}</blockquote>")
    return out


def _html_lines(lines: list[tuple[int, str]]) -> str:
    """Nested lists from (depth, words) lines."""
    out, depth = ["<ul>"], 0
    for level, text in lines:
        while depth < level:
            out.append("<ul>")
            depth += 1
        while depth > level:
            out.append("</ul>")
            depth -= 1
        out.append(f"<li>{html.escape(text)}</li>")
    out += ["</ul>"] * (depth + 1)
    return "".join(out)
