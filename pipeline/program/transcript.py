"""The record of an interaction's exchange: what each side wrote, in the order the relay
read it, whole or each direction's first and last bytes."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pipeline.outcome import TranscriptKind

# the two directions, as the transcript names them
TO_INTERACTOR, TO_SUBMISSION = "submission>interactor", "interactor>submission"
DIRECTIONS = (TO_INTERACTOR, TO_SUBMISSION)
KEEP_BYTES = 1024  # of each direction's first and last bytes, in a summary transcript
FULL_CAP_BYTES = 64 << 20  # a full transcript keeps at most this much each way
GAP = "..."
# what an interaction records (pipeline.outcome.TranscriptKind): nothing, each
# direction's first and last KEEP_BYTES, or all of it
NONE: TranscriptKind = "none"
SUMMARY: TranscriptKind = "summary"
FULL: TranscriptKind = "full"


@dataclass
class Chunk:
    """Bytes one side wrote, in the order the relay read them: `offset` into its
    direction's stream."""

    seq: int
    direction: str
    offset: int
    data: bytes


@dataclass
class Transcript:
    """The exchange of one interaction: every chunk (full), or each direction's first
    and last `keep` bytes (the rest counted, not kept)."""

    keep: int = KEEP_BYTES
    full: bool = False
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    head: list[Chunk] = field(default_factory=list)
    tail: dict[str, deque[Chunk]] = field(default_factory=lambda: {d: deque() for d in DIRECTIONS})
    _tail_bytes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))
    _seq: int = 0

    def record(self, direction: str, data: bytes) -> None:
        offset = self.totals[direction]
        self.totals[direction] = offset + len(data)
        self._seq += 1
        limit = FULL_CAP_BYTES if self.full else self.keep
        if offset < limit:  # the head
            taken = data[: limit - offset]
            self.head.append(Chunk(self._seq, direction, offset, taken))
            data, offset = data[len(taken) :], offset + len(taken)
        if not data or self.full:
            return
        tail = self.tail[direction]
        tail.append(Chunk(self._seq, direction, offset, data))
        self._tail_bytes[direction] += len(data)
        while self._tail_bytes[direction] - len(tail[0].data) >= self.keep:
            self._tail_bytes[direction] -= len(tail.popleft().data)

    def chunks(self) -> list[Chunk]:
        """The kept chunks in the order they were read (a tail chunk cut to its last
        `keep` bytes of its direction)."""
        out = list(self.head)
        for direction, tail in self.tail.items():
            extra = self._tail_bytes[direction] - self.keep
            for i, chunk in enumerate(tail):
                if i == 0 and extra > 0:
                    chunk = Chunk(chunk.seq, direction, chunk.offset + extra, chunk.data[extra:])
                out.append(chunk)
        return sorted(out, key=lambda c: c.seq)

    def render(self) -> str:
        """One line per line written (a chunk cut after each newline), in order: `> `
        for what the submission wrote, `< ` for what the interactor wrote (the text
        escaped, newlines shown as \\n), and a `... N bytes` line where bytes were left
        out."""
        lines = []
        seen = dict.fromkeys(DIRECTIONS, 0)
        for chunk in self.chunks():
            mark = ">" if chunk.direction == TO_INTERACTOR else "<"
            if chunk.offset > seen[chunk.direction]:
                lines.append(f"{mark} {GAP} {chunk.offset - seen[chunk.direction]} bytes")
            text = chunk.data.decode("utf-8", "backslashreplace")
            for line in text.splitlines(keepends=True):
                lines.append(f"{mark} {line.encode('unicode_escape').decode('ascii')}")
            seen[chunk.direction] = chunk.offset + len(chunk.data)
        for direction, total in self.totals.items():
            if total > seen[direction]:
                mark = ">" if direction == TO_INTERACTOR else "<"
                lines.append(f"{mark} {GAP} {total - seen[direction]} bytes")
        return "\n".join(lines)
