// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

class Gomoku {
    const bool WRONG = false;
    static readonly string[] NUMERALS = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};

    static int Count(string line, string pat) {
        int n = 0;
        for (int i = 0; i + pat.Length <= line.Length; i++) if (string.CompareOrdinal(line, i, pat, 0, pat.Length) == 0) n++;
        return n;
    }

    static void Main() {
        var b = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries).Take(7).ToArray();
        var lines = new List<string>();
        for (int r = 0; r < 7; r++) {
            lines.Add(b[r]);
            lines.Add(new string(Enumerable.Range(0, 7).Select(c => b[c][r]).ToArray()));
        }
        for (int start = -6; start < 7 && !WRONG; start++) {
            var down = new StringBuilder();
            var anti = new StringBuilder();
            for (int r = 0; r < 7; r++) {
                if (r - start >= 0 && r - start < 7) down.Append(b[r][r - start]);
                if (start + 6 - r >= 0 && start + 6 - r < 7) anti.Append(b[r][start + 6 - r]);
            }
            lines.Add(down.ToString());
            lines.Add(anti.ToString());
        }
        int dead = 0, live4 = 0, live3 = 0;
        foreach (var l in lines) {
            if (l.Length < 5) continue;
            if (l.StartsWith("oooox", StringComparison.Ordinal)) dead++;
            if (l.EndsWith("xoooo", StringComparison.Ordinal)) dead++;
            live4 += Count(l, "xoooox");
            live3 += Count(l, "xooox") + Count(l, "xoxoox") + Count(l, "xooxox");
        }
        var outText = new StringBuilder();
        if (dead > 0) outText.Append(NUMERALS[dead]).Append("死四");
        if (live4 > 0) outText.Append(NUMERALS[live4]).Append("活四");
        if (live3 > 0) outText.Append(NUMERALS[live3]).Append("活三");
        var bytes = new UTF8Encoding(false).GetBytes(outText.ToString() + "\n");
        using (var stdout = Console.OpenStandardOutput()) stdout.Write(bytes, 0, bytes.Length);
    }
}
