// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
object Gomoku {
  val WRONG = false
  val NUMERALS = Array("", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾")

  def count(line: String, pat: String): Int = (0 to line.length - pat.length).count(i => line.startsWith(pat, i))

  def main(args: Array[String]): Unit = {
    val b = scala.io.Source.stdin.mkString.split("\\s+").filter(_.nonEmpty).take(7)
    val lines = scala.collection.mutable.ArrayBuffer[String]()
    for (r <- 0 until 7) {
      lines += b(r)
      lines += (0 until 7).map(c => b(c)(r)).mkString
    }
    if (!WRONG) for (start <- -6 until 7) {
      lines += (0 until 7).filter(r => r - start >= 0 && r - start < 7).map(r => b(r)(r - start)).mkString
      lines += (0 until 7).filter(r => start + 6 - r >= 0 && start + 6 - r < 7).map(r => b(r)(start + 6 - r)).mkString
    }
    var dead = 0
    var live4 = 0
    var live3 = 0
    for (l <- lines if l.length >= 5) {
      if (l.startsWith("oooox")) dead += 1
      if (l.endsWith("xoooo")) dead += 1
      live4 += count(l, "xoooox")
      live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox")
    }
    val out = new StringBuilder
    if (dead > 0) out ++= NUMERALS(dead) + "死四"
    if (live4 > 0) out ++= NUMERALS(live4) + "活四"
    if (live3 > 0) out ++= NUMERALS(live3) + "活三"
    System.out.write((out.toString + "\n").getBytes("UTF-8"))
    System.out.flush()
  }
}
