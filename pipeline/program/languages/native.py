"""Languages compiled ahead of time to one native binary (or a CLR assembly): C, C++,
Rust, Go, Haskell, OCaml and C#."""

from __future__ import annotations

from pipeline.program.languages.contract import Language, SelfTest

C_TEST = SelfTest(
    hello='#include <stdio.h>\nint main(void) { puts("hello world"); return 0; }\n',
    accepted=(
        "#include <stdio.h>\n"
        'int main(void) { long long s = 0, x; while (scanf("%lld", &x) == 1) s += x;\n'
        '  printf("%lld\\n", s); return 0; }\n'
    ),
    compile_error="int main(void) { return undefined_name; }\n",
)
CPP_TEST = SelfTest(
    hello='#include <cstdio>\nint main() { std::puts("hello world"); return 0; }\n',
    accepted=(
        "#include <iostream>\n"
        "int main() { long long s = 0, x; while (std::cin >> x) s += x;\n"
        "  std::cout << s << std::endl; return 0; }\n"
    ),
    compile_error="int main() { return undefined_name; }\n",
)


# "-I.": a folder's headers are found by `#include <name.h>` too (the folder is on the
# include path, as the package format's program folders want)


def _c(std: str, default: bool = False) -> Language:
    return Language(
        name=f"c{std}",
        title="C",
        extensions=(".c",),
        headers=(".h",),
        aliases=("c",) if default else (),
        default_for=(".c",) if default else (),
        package="gcc",
        tools=("gcc",),
        compile=("gcc", "-O2", "-I.", f"-std=gnu{std}", "-o", "prog", "{sources}", "-lm"),
        run=("./prog",),
        fork_server="preload",
        version=("gcc", "-dumpfullversion"),
        self_test=C_TEST,
    )


def _cpp(std: str, default: bool = False) -> Language:
    return Language(
        name=f"cpp{std}",
        title="C++",
        extensions=(".cpp", ".cc", ".cxx"),
        headers=(".h", ".hpp", ".hh"),
        aliases=("cpp", "c++") if default else (),
        default_for=(".cpp", ".cc", ".cxx") if default else (),
        package="g++",
        tools=("g++",),
        compile=("g++", "-O2", "-I.", f"-std=gnu++{std}", "-o", "prog", "{sources}", "-lm"),
        run=("./prog",),
        fork_server="preload",
        version=("g++", "-dumpfullversion"),
        self_test=CPP_TEST,
    )


C = (_c("11", default=True), _c("17"))
# cpp23: the standard problemtools compiles C++ with (gnu++23)
CPP = (_cpp("98"), _cpp("11"), _cpp("17", default=True), _cpp("20"), _cpp("23"))

RUST = Language(
    name="rust",
    title="Rust",
    extensions=(".rs",),
    aliases=("rs",),
    package="rustc",
    tools=("rustc",),
    compile=("rustc", "-O", "--edition", "2021", "-o", "prog", "{main}"),
    run=("./prog",),
    fork_server="preload",
    version=("rustc", "--version"),
    self_test=SelfTest(
        hello='fn main() {\n    println!("hello world");\n}\n',
        accepted=(
            "use std::io::Read;\n"
            "fn main() {\n    let mut s = String::new();\n"
            "    std::io::stdin().read_to_string(&mut s).unwrap();\n"
            "    let t: i64 = s.split_whitespace().map(|w| w.parse::<i64>().unwrap()).sum();\n"
            '    println!("{}", t);\n}\n'
        ),
        compile_error="fn main() {\n    let x: i32 = undefined_name;\n}\n",
    ),
)

# Go reserves address space as it grows its heap; GOMEMLIMIT makes its collector work
# to stay under the limit before the kernel has to step in. GOMAXPROCS=1: one core, as
# the CPU limit counts every thread (idle scheduler threads spinning for work, and a
# parallel collector near the limit, would be charged to the program).
GO = Language(
    name="go",
    title="Go",
    extensions=(".go",),
    aliases=("golang",),
    package="golang-go",
    tools=("go",),
    compile=("go", "build", "-o", "prog", "{sources}"),
    compile_env=("GOCACHE=/tmp/gocache", "GO111MODULE=off", "GOPATH=/tmp/gopath", "CGO_ENABLED=0"),
    run=("env", "GOMEMLIMIT={memory_mb}MiB", "GOMAXPROCS=1", "./prog"),
    fork_server="preload",  # Go links statically: its fork server falls back to spawning
    version=("go", "version"),
    self_test=SelfTest(
        hello='package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello world")\n}\n',
        accepted=(
            'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\n'
            "func main() {\n\tin := bufio.NewReader(os.Stdin)\n\tvar s, x int64\n"
            "\tfor {\n\t\tif _, err := fmt.Fscan(in, &x); err != nil {\n\t\t\tbreak\n\t\t}\n"
            "\t\ts += x\n\t}\n\tfmt.Println(s)\n}\n"
        ),
        compile_error="package main\n\nfunc main() {\n\tx := undefinedName\n}\n",
        error_word="undefined",
    ),
)

HASKELL = Language(
    name="haskell",
    title="Haskell",
    extensions=(".hs",),
    aliases=("hs",),
    package="ghc",
    tools=("ghc",),
    compile=("ghc", "-O2", "-v0", "-rtsopts", "-o", "prog", "{sources}"),
    # the RTS's own heap ceiling: an overflow is "heap overflow" instead of a kill
    run=("./prog", "+RTS", "-M{memory_mb}m", "-K{memory_mb}m", "-RTS"),
    fork_server="preload",
    thread_stack_mb=64,
    version=("ghc", "--numeric-version"),
    compile_reads=("/var/lib/ghc",),  # Debian's global package database
    self_test=SelfTest(
        hello='main :: IO ()\nmain = putStrLn "hello world"\n',
        accepted='main :: IO ()\nmain = interact $ \\s -> show (sum (map read (words s) :: [Integer])) ++ "\\n"\n',  # noqa: E501
        compile_error='main :: IO ()\nmain = putStrLn (1 + "x")\n',
    ),
)

OCAML = Language(
    name="ocaml",
    title="OCaml",
    extensions=(".ml",),
    aliases=("ml",),
    package="ocaml-nox",
    tools=("ocamlopt",),
    # modules must come in dependency order: the main source is given last. The unix
    # and str libraries are linked, as problemtools links them (a program using Str is
    # no CE); `-I +unix -I +str` finds them where OCaml 5 keeps them in folders of their own
    compile=(
        "ocamlopt",
        "-I",
        "+unix",
        "-I",
        "+str",
        "-o",
        "prog",
        "unix.cmxa",
        "str.cmxa",
        "{sources}",
    ),
    run=("./prog",),
    fork_server="preload",
    version=("ocamlopt", "-version"),
    self_test=SelfTest(
        hello='let () = print_endline "hello world"\n',
        accepted=(
            "let () =\n  let s = ref 0 in\n"
            '  (try while true do Scanf.scanf " %d" (fun x -> s := !s + x) done\n'
            '   with _ -> ());\n  Printf.printf "%d\\n" !s\n'
        ),
        compile_error='let () = print_endline (1 + "x")\n',
        error_word="Error",
    ),
)

CSHARP = Language(
    name="csharp",
    title="C#",
    extensions=(".cs",),
    aliases=("cs", "c#"),
    package="mono-mcs",
    tools=("mcs", "mono"),
    # System.Numerics referenced as problemtools does: BigInteger is no CE
    compile=("mcs", "-optimize+", "-r:System.Numerics", "-out:prog.exe", "{sources}"),
    artefact="prog.exe",
    magic=b"MZ",
    # the collector's own ceiling: an overflow is OutOfMemoryException, not a kill
    run=("env", "MONO_GC_PARAMS=max-heap-size={memory_mb}m", "mono", "prog.exe"),
    thread_stack_mb=64,
    version=("mono", "--version"),
    compile_reads=("/etc/mono",),  # the runtime's configuration (machine.config)
    self_test=SelfTest(
        hello=('class Hello { static void Main() { System.Console.WriteLine("hello world"); } }\n'),
        accepted=(
            "using System;\nclass Sum { static void Main() {\n"
            "  long s = 0;\n"
            "  foreach (var w in Console.In.ReadToEnd().Split((char[])null,"
            " StringSplitOptions.RemoveEmptyEntries)) s += long.Parse(w);\n"
            "  Console.WriteLine(s); } }\n"
        ),
        compile_error="class Bad { static void Main() { int x = undefined_name; } }\n",
    ),
)
