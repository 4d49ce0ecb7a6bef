"""Java, Kotlin and Scala: compiled to classes in the sandbox, packed by the judge into
one jar, started at the class that has `public static void main(String[])`, whatever its
name or package (found in the class files, as Kattis and DOMjudge do)."""

from __future__ import annotations

import io
import struct
import tarfile
import zipfile

from pipeline.program.languages.contract import BuildFailure, Language, SelfTest

KOTLIN_STDLIB = "/usr/share/java/kotlin-stdlib.jar"
SCALA_LIBRARY = "/usr/share/java/scala-library.jar"
MAIN_DESCRIPTOR = "([Ljava/lang/String;)V"
ACC_PUBLIC, ACC_STATIC = 0x0001, 0x0008
# constant pool entry sizes (after the tag) of the fixed-size kinds; 1 (Utf8) is read
# by its length, 5 and 6 (Long, Double) take two slots
_CP_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4,
             15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}  # fmt: skip

# The heap is the memory limit (an overflow is OutOfMemoryError, the run then ends at
# once); thread stacks as deep as a C++ program's; small code and class areas, which
# bound what the JVM reserves up front (no backend limits the address space now: kept
# so that runs stay as they were).
JVM_FLAGS = (
    "-XX:+UseSerialGC",
    "-Xss64m",
    "-Xmx{memory_mb}m",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:MaxMetaspaceSize=256m",
    "-XX:+ExitOnOutOfMemoryError",
    "-XX:-UsePerfData",
)
COMPILER_JVM = "-Xss16m -Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData"
JVM_ENV = ("MALLOC_ARENA_MAX=2",)
# a compiler's JVM reads its configuration there (jvm.cfg, security/java.security) through
# the JDK's conf link
JVM_READS = ("/etc/java-*",)
JVM_WARNING = "OpenJDK 64-Bit Server VM warning"


def _utf8_pool(data: bytes) -> tuple[dict[int, str], dict[int, int], int]:
    """The class file's Utf8 constants, its Class constants (index -> name index), and
    the offset just past the constant pool."""
    count = struct.unpack_from(">H", data, 8)[0]
    utf8: dict[int, str] = {}
    classes: dict[int, int] = {}
    pos, index = 10, 1
    while index < count:
        tag = data[pos]
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, pos + 1)
            utf8[index] = data[pos + 3 : pos + 3 + length].decode("utf-8", "replace")
            pos += 3 + length
        elif tag in _CP_SIZES:
            if tag == 7:
                classes[index] = struct.unpack_from(">H", data, pos + 1)[0]
            pos += 1 + _CP_SIZES[tag]
            index += 1 if tag in (5, 6) else 0
        else:
            raise ValueError(f"constant pool tag {tag}")
        index += 1
    return utf8, classes, pos


def _skip_members(data: bytes, pos: int) -> tuple[list[tuple[int, int, int]], int]:
    """(access, name index, descriptor index) of each field or method, and the end."""
    (count,) = struct.unpack_from(">H", data, pos)
    pos += 2
    members = []
    for _ in range(count):
        access, name, desc, attrs = struct.unpack_from(">HHHH", data, pos)
        pos += 8
        for _ in range(attrs):
            (length,) = struct.unpack_from(">I", data, pos + 2)
            pos += 6 + length
        members.append((access, name, desc))
    return members, pos


def main_class(data: bytes) -> str | None:
    """The dotted name of a class file's class when it has a public static main."""
    if data[:4] != b"\xca\xfe\xba\xbe":
        return None
    utf8, classes, pos = _utf8_pool(data)
    this_class = struct.unpack_from(">H", data, pos + 2)[0]
    (interfaces,) = struct.unpack_from(">H", data, pos + 6)
    pos += 8 + 2 * interfaces
    _, pos = _skip_members(data, pos)  # fields
    methods, _ = _skip_members(data, pos)
    for access, name, desc in methods:
        wanted = ACC_PUBLIC | ACC_STATIC
        if (
            access & wanted == wanted
            and utf8.get(name) == "main"
            and utf8.get(desc) == MAIN_DESCRIPTOR
        ):
            return utf8[classes[this_class]].replace("/", ".")
    return None


def _tar_files(tar_bytes: bytes) -> list[tuple[str, bytes]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
            files = []
            for member in tar.getmembers():
                name = member.name.removeprefix("./")
                extracted = tar.extractfile(member) if member.isfile() else None
                if extracted is not None and ".." not in name.split("/"):
                    files.append((name, extracted.read()))
            return files
    except tarfile.TarError as exc:
        raise BuildFailure(f"the compiler wrote no classes ({exc})") from None


def pack_jar(
    tar_bytes: bytes, main: str = "", kotlin: bool = False
) -> tuple[dict[str, bytes], str]:
    """The compiler's classes (a tar) as a jar, and the class to start: the one class
    with a main method, else among several the one the main source names (`main`, by
    problemtools' and BAPCtools' rule: Main.java's `Main`, Kotlin's main.kt's `MainKt`)."""
    found: list[str] = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as jar:
        for name, data in _tar_files(tar_bytes):
            jar.writestr(name, data)
            if name.endswith(".class"):
                try:
                    entry = main_class(data)
                except (ValueError, struct.error, IndexError, KeyError):
                    entry = None
                if entry:
                    found.append(entry)
    if not found:
        raise BuildFailure("no class has a `public static void main(String[])`")
    top = [name for name in found if "$" not in name] or found
    if len(top) > 1:
        wanted = named_class(main, kotlin)
        top = [name for name in top if name.rpartition(".")[2] == wanted] or top
    if len(top) > 1:
        raise BuildFailure(f"several classes have a main method: {', '.join(sorted(top))}")
    return {"prog.jar": out.getvalue()}, top[0]


def named_class(main: str, kotlin: bool = False) -> str:
    """The class a main source names: its stem; Kotlin's file class (`main.kt` is
    `MainKt`)."""
    stem = main.rpartition(".")[0] or main
    return f"{stem[:1].upper()}{stem[1:]}Kt" if kotlin else stem


def pack_kotlin_jar(tar_bytes: bytes, main: str = "") -> tuple[dict[str, bytes], str]:
    return pack_jar(tar_bytes, main, kotlin=True)


def _pack(compiler: str) -> tuple[str, ...]:
    script = f"mkdir -p classes && {compiler} -d classes {{sources}} && tar -cf prog -C classes ."
    return ("sh", "-c", script)


def _run(classpath: str) -> tuple[str, ...]:
    return ("java", *JVM_FLAGS, "-cp", classpath, "{entry}")


JAVA = Language(
    name="java",
    title="Java",
    extensions=(".java",),
    package="default-jdk-headless",
    tools=("javac", "java", "tar"),
    compile=_pack(f"javac {' '.join('-J' + f for f in COMPILER_JVM.split())} -encoding UTF-8"),
    run=_run("prog.jar"),
    artefact="prog",
    magic=None,
    finish=pack_jar,
    keep_names=True,
    version=("javac", "-version"),
    env=JVM_ENV,
    compile_reads=JVM_READS,
    self_test=SelfTest(
        hello='class Hello { public static void main(String[] a) { System.out.println("hello world"); } }\n',  # noqa: E501
        accepted=(
            "import java.util.*;\n"
            "class Sum { public static void main(String[] a) {\n"
            "  Scanner in = new Scanner(System.in); long s = 0;\n"
            "  while (in.hasNextLong()) s += in.nextLong();\n"
            "  System.out.println(s); } }\n"
        ),
        compile_error="class Bad { public static void main(String[] a) { int x = ; } }\n",
    ),
)

KOTLIN = Language(
    name="kotlin",
    title="Kotlin",
    extensions=(".kt",),
    aliases=("kt",),
    package="kotlin",
    tools=("kotlinc", "java", "tar"),
    files=(KOTLIN_STDLIB,),
    compile=_pack("kotlinc -nowarn"),
    run=_run(f"prog.jar:{KOTLIN_STDLIB}"),
    magic=None,
    finish=pack_kotlin_jar,
    keep_names=True,
    noise=(JVM_WARNING,),
    version=("kotlinc", "-version"),
    env=JVM_ENV,
    compile_env=(f"JAVA_OPTS={COMPILER_JVM}",),
    compile_reads=JVM_READS,
    self_test=SelfTest(
        hello='fun main() {\n    println("hello world")\n}\n',
        accepted=(
            "fun main() {\n"
            "    val s = generateSequence(::readLine).flatMap { it.split(' ').asSequence() }\n"
            "        .filter { it.isNotEmpty() }.map { it.toLong() }.sum()\n"
            "    println(s)\n}\n"
        ),
        compile_error='fun main() {\n    val x: Int = "text"\n}\n',
    ),
)

SCALA = Language(
    name="scala",
    title="Scala",
    extensions=(".scala",),
    package="scala",
    tools=("scalac", "java", "tar"),
    files=(SCALA_LIBRARY,),
    compile=_pack("scalac -nowarn"),
    run=_run(f"prog.jar:{SCALA_LIBRARY}"),
    magic=None,
    finish=pack_jar,
    keep_names=True,
    noise=(JVM_WARNING,),
    version=("scalac", "-version"),
    env=JVM_ENV,
    compile_env=(f"JAVA_OPTS={COMPILER_JVM}",),
    compile_reads=JVM_READS,
    self_test=SelfTest(
        hello='object Hello {\n  def main(args: Array[String]): Unit = println("hello world")\n}\n',
        accepted=(
            "object Sum {\n  def main(args: Array[String]): Unit = {\n"
            '    val words = scala.io.Source.stdin.mkString.split("\\\\s+").filter(_.nonEmpty)\n'
            "    println(words.map(_.toLong).sum)\n  }\n}\n"
        ),
        compile_error=(
            'object Bad {\n  def main(args: Array[String]): Unit = { val x: Int = "t" }\n}\n'
        ),
    ),
)
