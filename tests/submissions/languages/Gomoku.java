// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class Gomoku {
    static final boolean WRONG = false;
    static final String[] NUMERALS = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};

    static int count(String line, String pat) {
        int n = 0;
        for (int i = 0; i + pat.length() <= line.length(); i++) if (line.startsWith(pat, i)) n++;
        return n;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String[] b = new String[7];
        for (int r = 0; r < 7; r++) b[r] = in.next();
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < 7; r++) {
            lines.add(b[r]);
            StringBuilder col = new StringBuilder();
            for (int c = 0; c < 7; c++) col.append(b[c].charAt(r));
            lines.add(col.toString());
        }
        for (int start = -6; start < 7 && !WRONG; start++) {
            StringBuilder down = new StringBuilder(), anti = new StringBuilder();
            for (int r = 0; r < 7; r++) {
                if (r - start >= 0 && r - start < 7) down.append(b[r].charAt(r - start));
                if (start + 6 - r >= 0 && start + 6 - r < 7) anti.append(b[r].charAt(start + 6 - r));
            }
            lines.add(down.toString());
            lines.add(anti.toString());
        }
        int dead = 0, live4 = 0, live3 = 0;
        for (String l : lines) {
            if (l.length() < 5) continue;
            if (l.startsWith("oooox")) dead++;
            if (l.endsWith("xoooo")) dead++;
            live4 += count(l, "xoooox");
            live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox");
        }
        StringBuilder out = new StringBuilder();
        if (dead > 0) out.append(NUMERALS[dead]).append("死四");
        if (live4 > 0) out.append(NUMERALS[live4]).append("活四");
        if (live3 > 0) out.append(NUMERALS[live3]).append("活三");
        PrintStream ps = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ps.println(out);
    }
}
