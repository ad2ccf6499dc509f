"""Notes in the log as a small, safe Markdown: everything is escaped first, then a few
marks become tags: paragraphs and line breaks, ``**bold**``, ``*italic*``, ```code```,
``- `` lists, and ``[text](https://...)`` links to http, https or mailto addresses only.
No HTML a writer types ever reaches the page as HTML; no other scheme (``javascript:``,
``data:``) becomes a link."""

from __future__ import annotations

import html
import re

from django.utils.safestring import SafeString, mark_safe

MAX_RENDERED = 20_000  # characters of a note read; the rest is cut (notes are capped well below)

_CODE = re.compile(r"`([^`\n]{1,500})`")
_BOLD = re.compile(r"\*\*(?=\S)(.{1,500}?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?=\S)([^*\n]{1,500}?)(?<=\S)\*(?![*\w])")
_BULLET = re.compile(r"^\s*[-*] ")
_LINK = re.compile(r"\[([^\]\n]{1,300})\]\(((?:https?://|mailto:)[^\s()<>\"']{1,2000})\)")


def _inline(text: str) -> str:
    """One escaped line with its inline marks as tags (code first, so marks inside it stay)."""
    codes: list[str] = []

    def keep_code(match: re.Match) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep_code, text)
    text = _LINK.sub(
        lambda m: f'<a href="{m.group(2)}" rel="nofollow noopener noreferrer">{m.group(1)}</a>', text
    )
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    text = _ITALIC.sub(r"<em>\1</em>", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], text)


def render(text: str) -> SafeString:
    """The note as HTML that is safe to put on a page."""
    text = (text or "")[:MAX_RENDERED].replace("\x00", "").replace("\r\n", "\n")
    # quote=True: a link's address is an attribute; &, <, >, " and ' cannot leave it.
    escaped = html.escape(text, quote=True)
    blocks = []
    for block in re.split(r"\n\s*\n", escaped.strip()):
        lines = [line.rstrip() for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        if all(_BULLET.match(line) for line in lines):
            items = "".join(f"<li>{_inline(_BULLET.sub('', line))}</li>" for line in lines)
            blocks.append(f"<ul>{items}</ul>")
        else:
            blocks.append("<p>" + "<br>".join(_inline(line) for line in lines) + "</p>")
    return mark_safe("".join(blocks))  # built from escaped text only
