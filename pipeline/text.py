"""Messages shown to people (compiler output, checker messages): runs of the same line
folded into one, and cut at a line or word boundary, never inside a word."""

from __future__ import annotations

ELLIPSIS = " …"
TRUNCATED = "\n[... truncated]"


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
