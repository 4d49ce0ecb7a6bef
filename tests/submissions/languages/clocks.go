// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
package main

import (
	"os"
	"strconv"
	"strings"
)

const WRONG = false

var MOVES = []string{"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"}

func main() {
	data, _ := os.ReadFile("clocks.in")
	fields := strings.Fields(string(data))
	var clock [9]int
	for i := 0; i < 9; i++ {
		v, _ := strconv.Atoi(fields[i])
		clock[i] = v / 3 % 4
	}
	var by [9][]int
	for i := 0; i < 9; i++ {
		for m := 0; m < 9; m++ {
			if strings.IndexByte(MOVES[m], byte('A'+i)) >= 0 {
				by[i] = append(by[i], m)
			}
		}
	}
	best, bestTotal := 0, 100
	var count [9]int
	for code := 0; code < 1<<18; code++ {
		total := 0
		for m := 0; m < 9; m++ {
			count[m] = code >> (2 * m) & 3
			total += count[m]
		}
		ok := true
		for i := 0; i < 9 && ok; i++ {
			s := clock[i]
			for _, m := range by[i] {
				s += count[m]
			}
			ok = s%4 == 0
		}
		if ok && total < bestTotal {
			best, bestTotal = code, total
		}
	}
	var moves []string
	for m := 0; m < 9; m++ {
		for k := 0; k < best>>(2*m)&3; k++ {
			moves = append(moves, strconv.Itoa(m+1))
		}
	}
	if WRONG {
		for i, j := 0, len(moves)-1; i < j; i, j = i+1, j-1 {
			moves[i], moves[j] = moves[j], moves[i]
		}
	}
	os.WriteFile("clocks.out", []byte(strings.Join(moves, " ")+"\n"), 0o644)
}
