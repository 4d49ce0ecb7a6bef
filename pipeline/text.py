"""Messages shown to people (compiler output, checker messages): runs of the same line
folded into one, and cut at a line or word boundary, never inside a word. Names a user or
a package brings (a family is a folder's name, a case a file's, a submission a path) are
data: written anywhere (terminal, Markdown, HTML, CSV) they go through `printable`, so no
control character of theirs moves a cursor, colours a terminal or ends a line."""

from __future__ import annotations

import re

ELLIPSIS = " …"
TRUNCATED = "\n[... truncated]"
MESSAGE_CHARS = 1000  # an error line gridjudge prints: enough for a path and its cause
# C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional
# overrides and isolates (which reorder what a reader sees of the text around them)
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, lines: bool = False) -> str:
    """`text` with each control character written as its escape (`\\n`, `\\x1b`,
    `\\u202e`): one line, shown as it is, whatever it holds. `lines`: line ends and
    tabs kept (a whole page or file whose structure is its lines)."""
    if lines:
        return _CONTROLS.sub(lambda m: m.group() if m.group() in "\n\t" else _escape(m), text)
    return _CONTROLS.sub(_escape, text)


def one_line(message: str, limit: int = MESSAGE_CHARS) -> str:
    """A message as one line for a terminal: runs of whitespace as one space, controls
    escaped, at most about `limit` characters (a message can quote what a file holds)."""
    return clip(printable(" ".join(message[: 4 * limit].split())), limit)


def fold_repeats(text: str) -> str:
    """Each run of identical consecutive lines as one line `line (repeated N times)`."""
    lines = text.splitlines()
    out: list[str] = []
    count = 0
    for number, line in enumerate(lines):
        count += 1
        if number + 1 < len(lines) and lines[number + 1] == line:
            continue
        out.append(f"{line} (repeated {count} times)" if count > 1 else line)
        count = 0
    return "\n".join(out)


def clip(text: str, limit: int, mark: str = ELLIPSIS) -> str:
    """`text` if it has at most `limit` characters, else its head up to the last line end
    (or else the last space) within the limit, then `mark`; a single word longer than
    the limit is cut at the limit."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    for boundary in ("\n", " "):
        end = head.rfind(boundary)
        if end > limit // 2:
            return head[:end].rstrip() + mark
    return head + mark


def compiler_message(text: str, limit: int) -> str:
    """A compiler's output for people: repeats folded, then clipped at a line end."""
    return clip(fold_repeats(text.rstrip()), limit, TRUNCATED)
