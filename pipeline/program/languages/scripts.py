"""A program folder with `build` / `run` scripts, as the Kattis package format defines
them for validators (every version): `build`, when present, runs first in (a copy of)
the folder; then `run` is the program. Here the build runs in the sandbox like any
compiler, under the compile limits, on the folder's files; what the folder holds after
it (its top-level regular files: a scratch dir is flat) is the built program, and each
run starts `./run`.

Not a language a user names: it is not listed by the registry's plugins (no
`gridjudge languages` line, no self-test); the package reader chooses it for a folder
that holds a `build` or `run` file (pipeline.package.programs), and the registry finds
it by name for a build made elsewhere.
"""

from __future__ import annotations

import io
import tarfile

from pipeline.program.languages.contract import BuildFailure, Language, SelfTest

BUILD, RUN = "build", "run"
BUILT = ".gridjudge-built.tar"  # the folder after the build, read back by the judge

# The scripts may assume a POSIX shell, python3, cc and c++ (the format's words); they
# are made executable first, as a copy that lost its modes needs (the files reach the
# sandbox as bytes). No braces here: the template is filled in with str.format.
_SCRIPT = (
    "chmod +x ./* 2>/dev/null; "
    f"if [ -f {BUILD} ]; then ./{BUILD} 1>&2 || exit $?; fi; "
    f"if [ ! -f {RUN} ]; then echo 'the folder has no {RUN} file after {BUILD}' >&2; exit 1; fi; "
    f"chmod +x {RUN} && tar -cf {BUILT} --exclude=./{BUILT} ."
)
# what changes a build besides the files: the tools the scripts may call
_VERSIONS = 'echo "cc $(cc -dumpfullversion) c++ $(c++ -dumpfullversion) $(python3 --version)"'


def unpack(tar_bytes: bytes, main: str) -> tuple[dict[str, bytes], str]:
    """The folder after its build: its top-level regular files; `run` is the entry."""
    del main  # the entry is always `run`
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
            for member in tar.getmembers():
                name = member.name.removeprefix("./")
                extracted = tar.extractfile(member) if member.isfile() else None
                if extracted is not None and name and "/" not in name and name != BUILT:
                    files[name] = extracted.read()
    except tarfile.TarError as exc:
        raise BuildFailure(f"the built folder could not be read ({exc})") from None
    if RUN not in files:
        raise BuildFailure(f"the folder has no {RUN} file after {BUILD}")
    return files, RUN


SCRIPTS = Language(
    name="build-run",
    title="build/run scripts",
    extensions=(),
    package="gcc g++ python3",
    tools=("sh", "tar", "cc", "c++", "python3"),
    compile=("sh", "-c", _SCRIPT),
    artefact=BUILT,
    magic=None,
    finish=unpack,
    run=(f"./{RUN}",),
    version=("sh", "-c", _VERSIONS),
    keep_names=True,
    whole_folder=True,
    entry_names=(RUN,),
    # never run: this language is not listed, so `languages --self-test` does not see it
    self_test=SelfTest(hello="", accepted="", compile_error=""),
)
