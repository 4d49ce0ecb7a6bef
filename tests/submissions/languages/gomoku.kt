// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
val WRONG = false
val NUMERALS = listOf("", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾")

fun count(line: String, pat: String): Int = (0..line.length - pat.length).count { line.startsWith(pat, it) }

fun main() {
    val b = generateSequence(::readLine).flatMap { it.split(' ').asSequence() }
        .filter { it.isNotEmpty() }.take(7).toList()
    val lines = mutableListOf<String>()
    for (r in 0 until 7) {
        lines.add(b[r])
        lines.add((0 until 7).map { b[it][r] }.joinToString(""))
    }
    if (!WRONG) {
        for (start in -6 until 7) {
            lines.add((0 until 7).filter { it - start in 0..6 }.map { b[it][it - start] }.joinToString(""))
            lines.add((0 until 7).filter { start + 6 - it in 0..6 }.map { b[it][start + 6 - it] }.joinToString(""))
        }
    }
    var dead = 0
    var live4 = 0
    var live3 = 0
    for (l in lines.filter { it.length >= 5 }) {
        if (l.startsWith("oooox")) dead++
        if (l.endsWith("xoooo")) dead++
        live4 += count(l, "xoooox")
        live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox")
    }
    val out = StringBuilder()
    if (dead > 0) out.append(NUMERALS[dead]).append("死四")
    if (live4 > 0) out.append(NUMERALS[live4]).append("活四")
    if (live3 > 0) out.append(NUMERALS[live3]).append("活三")
    System.out.write((out.toString() + "\n").toByteArray(Charsets.UTF_8))
    System.out.flush()
}
