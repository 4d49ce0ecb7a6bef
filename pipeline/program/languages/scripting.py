"""Languages whose sources run as they are, after a syntax check in the sandbox (a failed
check is the CE): CPython 3, PyPy 3, JavaScript (Node), Ruby and PHP."""

from __future__ import annotations

from pipeline.program.languages.contract import Language, SelfTest


def _each(command: str) -> tuple[str, ...]:
    """A check that takes one file at a time, run over every source."""
    return ("sh", "-c", f'for f in {{sources}}; do {command} "$f" >/dev/null || exit 1; done')


PY_TEST = SelfTest(
    hello='print("hello world")\n',
    accepted="import sys\nprint(sum(int(t) for t in sys.stdin.read().split()))\n",
    compile_error="def f(:\n    pass\n",
    error_word="SyntaxError",
)


def _python(name: str, binary: str, package: str, aliases: tuple[str, ...]) -> Language:
    return Language(
        name=name,
        title="Python 3" if name == "py3" else "PyPy 3",
        extensions=(".py",),
        default_for=(".py",) if name == "py3" else (),
        aliases=aliases,
        package=package,
        tools=(binary,),
        check=(binary, "-m", "py_compile", "{sources}"),
        run=(binary, "{main}"),
        fork_server="zygote",
        entry_names=("__main__.py",),  # a folder that is a Python package
        version=(binary, "--version"),
        self_test=PY_TEST,
    )


PY3 = _python("py3", "python3", "python3", ("python", "python3", "cpython"))
PYPY3 = _python("pypy3", "pypy3", "pypy3", ("pypy",))

# V8 reserves its code range and heap pages up front; its own heap ceiling turns an
# overflow into "JavaScript heap out of memory"
JAVASCRIPT = Language(
    name="js",
    title="JavaScript (Node)",
    extensions=(".js",),
    aliases=("javascript", "node", "nodejs"),
    package="nodejs",
    tools=("node",),
    check=_each("node --check"),
    run=("node", "--max-old-space-size={memory_mb}", "--stack-size=32768", "{main}"),
    thread_stack_mb=64,
    version=("node", "--version"),
    self_test=SelfTest(
        hello='console.log("hello world");\n',
        accepted=(
            "const t = require('fs').readFileSync(0, 'utf8').split(/\\s+/).filter(Boolean);\n"
            "console.log(t.reduce((s, w) => s + Number(w), 0));\n"
        ),
        compile_error="function f( {\n",
        error_word="SyntaxError",
    ),
)

RUBY = Language(
    name="ruby",
    title="Ruby",
    extensions=(".rb",),
    aliases=("rb",),
    package="ruby",
    tools=("ruby",),
    check=_each("ruby -c"),
    run=("ruby", "{main}"),
    thread_stack_mb=64,
    version=("ruby", "--version"),
    self_test=SelfTest(
        hello='puts "hello world"\n',
        accepted="puts STDIN.read.split.map(&:to_i).sum\n",
        compile_error="def f(\n  puts 1\n",
        error_word="syntax error",
    ),
)

PHP = Language(
    name="php",
    title="PHP",
    extensions=(".php",),
    package="php-cli",
    tools=("php",),
    check=_each("php -d display_errors=stderr -l"),
    compile_reads=("/etc/php",),  # php.ini and the extensions it loads
    run=("php", "-d", "memory_limit={memory_mb}M", "{main}"),
    version=("php", "--version"),
    self_test=SelfTest(
        hello='<?php\necho "hello world\\n";\n',
        accepted=(
            "<?php\n$t = preg_split('/\\s+/', trim(stream_get_contents(STDIN)));\n"
            "echo array_sum(array_map('intval', array_filter($t, 'strlen'))), \"\\n\";\n"
        ),
        compile_error="<?php\nfunction f( {\n",
        error_word="syntax error",
    ),
)

PYTHON = (PY3, PYPY3)
