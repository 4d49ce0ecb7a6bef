public class Helper {
    static long middle(long low, long high) {
        return (low + high) / 2;
    }

    // a check of its own, run by hand: Main.java names the program's entry point
    public static void main(String[] args) {
        System.out.println(middle(1, 1000));
    }
}
