// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
import java.io.*;
import java.util.*;

public class Clocks {
    static final boolean WRONG = false;
    static final String[] MOVES = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

    public static void main(String[] args) throws IOException {
        Scanner in = new Scanner(new File("clocks.in"));
        int[] clock = new int[9];
        for (int i = 0; i < 9; i++) clock[i] = in.nextInt() / 3 % 4;
        int[][] by = new int[9][];
        for (int i = 0; i < 9; i++) {
            List<Integer> ms = new ArrayList<>();
            for (int m = 0; m < 9; m++) if (MOVES[m].indexOf('A' + i) >= 0) ms.add(m);
            by[i] = ms.stream().mapToInt(Integer::intValue).toArray();
        }
        int best = 0, bestTotal = 100;
        int[] count = new int[9];
        for (int code = 0; code < 1 << 18; code++) {
            int total = 0;
            boolean ok = true;
            for (int m = 0; m < 9; m++) total += count[m] = code >> (2 * m) & 3;
            for (int i = 0; i < 9 && ok; i++) {
                int s = clock[i];
                for (int m : by[i]) s += count[m];
                ok = s % 4 == 0;
            }
            if (ok && total < bestTotal) { best = code; bestTotal = total; }
        }
        List<Integer> moves = new ArrayList<>();
        for (int m = 0; m < 9; m++) for (int k = 0; k < (best >> (2 * m) & 3); k++) moves.add(m + 1);
        if (WRONG) Collections.reverse(moves);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < moves.size(); i++) sb.append(i > 0 ? " " : "").append(moves.get(i));
        try (PrintWriter out = new PrintWriter(new FileWriter("clocks.out"))) { out.println(sb); }
    }
}
