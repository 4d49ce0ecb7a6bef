// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
import java.io.{File, PrintWriter}

object Clocks {
  val WRONG = false
  val MOVES = Array("ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI")

  def main(args: Array[String]): Unit = {
    val source = scala.io.Source.fromFile("clocks.in")
    val clock = source.mkString.split("\\s+").filter(_.nonEmpty).take(9).map(_.toInt / 3 % 4)
    source.close()
    val by = Array.tabulate(9)(i => (0 until 9).filter(m => MOVES(m).contains(('A' + i).toChar)).toArray)
    var best = 0
    var bestTotal = 100
    val count = new Array[Int](9)
    var code = 0
    while (code < (1 << 18)) {
      var total = 0
      var m = 0
      while (m < 9) { count(m) = (code >> (2 * m)) & 3; total += count(m); m += 1 }
      var ok = true
      var i = 0
      while (i < 9 && ok) {
        var s = clock(i)
        for (j <- by(i)) s += count(j)
        ok = s % 4 == 0
        i += 1
      }
      if (ok && total < bestTotal) { best = code; bestTotal = total }
      code += 1
    }
    val moves = (0 until 9).flatMap(m => Seq.fill((best >> (2 * m)) & 3)(m + 1))
    val out = new PrintWriter(new File("clocks.out"))
    out.println((if (WRONG) moves.reverse else moves).mkString(" "))
    out.close()
  }
}
