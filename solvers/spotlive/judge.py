"""The judge program of spotlive: one Spot game played with the submission move by move.

A Kattis interactor (`judge.py input answer feedback_dir`, exit 42 accepted, 43 wrong
answer with the reason in feedback_dir/judgemessage.txt), standard library only: it runs
in the sandbox as a program of its own, beside the submission, never inside the judge.

The exchange: the judge writes `N`, then one move `r c +` (or `-`) at a time; after each
move the submission answers with one line: `continue` while the game goes on, the game's
result (`Player K wins on move M`, or `Draw` after move 2N) when that move decides it.
The next move is written only once the answer to the last one is in, so the submission
cannot read ahead. The result is the answer file's (the reference solver's): the judge
does not play the game itself, it only holds the submission to that result move by move.
"""

from __future__ import annotations

import os
import sys

ACCEPTED, WRONG = 42, 43
GOES_ON = "continue"
MAX_LINE = 4096  # bytes of one answer (the longest right one has 30)


def _reject(feedback: str, why: str) -> int:
    with open(os.path.join(feedback, "judgemessage.txt"), "w", encoding="utf-8") as out:
        out.write(why + "\n")
    return WRONG


def _game(path: str) -> tuple[int, list[str]]:
    """The game's N and its 2N moves, each as the line the judge writes."""
    with open(path, encoding="utf-8") as fh:
        tokens = fh.read().split()
    n = int(tokens[0])
    moves = [" ".join(tokens[1 + 3 * i : 4 + 3 * i]) for i in range(2 * n)]
    return n, moves


def _deciding_move(result: str, n: int) -> int:
    """The move after which the submission must give the result."""
    return int(result.split()[-1]) if result.startswith("Player") else 2 * n


def play(input_path: str, answer_path: str, feedback: str) -> int:
    n, moves = _game(input_path)
    with open(answer_path, encoding="utf-8") as fh:
        result = " ".join(fh.read().split())
    last = _deciding_move(result, n)
    try:
        print(n, flush=True)
        for number in range(1, last + 1):
            print(moves[number - 1], flush=True)
            # at most one line of MAX_LINE bytes: a flood is rejected, not buffered
            line = sys.stdin.buffer.readline(MAX_LINE)
            if not line:
                return _reject(
                    feedback, f"move {number}: no answer (the submission's output ended)"
                )
            if len(line) == MAX_LINE and not line.endswith(b"\n"):
                return _reject(feedback, f"move {number}: an answer longer than {MAX_LINE} bytes")
            reply = line.decode("utf-8", "replace")  # any bytes: a wrong answer, never a crash
            got, want = " ".join(reply.split()), result if number == last else GOES_ON
            if got != want:
                return _reject(feedback, f"move {number}: expected {want!r}, got {got[:80]!r}")
    except BrokenPipeError:  # the submission stopped reading: it is gone
        return _reject(feedback, "the submission stopped reading before the game was over")
    return ACCEPTED


if __name__ == "__main__":
    sys.exit(play(sys.argv[1], sys.argv[2], sys.argv[3]))
