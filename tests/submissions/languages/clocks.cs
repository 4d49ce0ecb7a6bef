// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

class Clocks {
    const bool WRONG = false;
    static readonly string[] MOVES = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

    static void Main() {
        var clock = File.ReadAllText("clocks.in").Split((char[])null, StringSplitOptions.RemoveEmptyEntries)
            .Take(9).Select(t => int.Parse(t) / 3 % 4).ToArray();
        var by = Enumerable.Range(0, 9)
            .Select(i => Enumerable.Range(0, 9).Where(m => MOVES[m].IndexOf((char)('A' + i)) >= 0).ToArray())
            .ToArray();
        int best = 0, bestTotal = 100;
        var count = new int[9];
        for (int code = 0; code < 1 << 18; code++) {
            int total = 0;
            bool ok = true;
            for (int m = 0; m < 9; m++) total += count[m] = code >> (2 * m) & 3;
            for (int i = 0; i < 9 && ok; i++) {
                int s = clock[i];
                foreach (int m in by[i]) s += count[m];
                ok = s % 4 == 0;
            }
            if (ok && total < bestTotal) { best = code; bestTotal = total; }
        }
        var moves = new List<int>();
        for (int m = 0; m < 9; m++) for (int k = 0; k < (best >> (2 * m) & 3); k++) moves.Add(m + 1);
        if (WRONG) moves.Reverse();
        File.WriteAllText("clocks.out", string.Join(" ", moves) + "\n");
    }
}
