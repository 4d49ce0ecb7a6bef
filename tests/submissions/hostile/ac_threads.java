// An honest Java program splitting its work over two threads (the JVM starts more).
import java.util.Scanner;

class AcThreads {
    public static void main(String[] args) throws InterruptedException {
        long n = new Scanner(System.in).nextLong();
        long[] part = new long[2];
        Thread[] threads = new Thread[2];
        for (int k = 0; k < 2; k++) {
            final int i = k;
            threads[k] = new Thread(() -> part[i] = i == 0 ? n / 2 : n - n / 2);
            threads[k].start();
        }
        for (Thread t : threads) t.join();
        System.out.println(part[0] + part[1]);
    }
}
