import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long low = 1, high = 1000;
        while (true) {
            long guess = Helper.middle(low, high);
            System.out.println(guess);
            System.out.flush();
            String said = in.next();
            if (said.equals("correct")) return;
            if (said.equals("higher")) low = guess + 1;
            else high = guess - 1;
        }
    }
}
