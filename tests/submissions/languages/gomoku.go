// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const WRONG = false

var NUMERALS = []string{"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"}

func count(line, pat string) int {
	n := 0
	for i := 0; i+len(pat) <= len(line); i++ {
		if line[i:i+len(pat)] == pat {
			n++
		}
	}
	return n
}

func main() {
	data, _ := io.ReadAll(os.Stdin)
	b := strings.Fields(string(data))[:7]
	var lines []string
	for r := 0; r < 7; r++ {
		lines = append(lines, b[r])
		col := make([]byte, 7)
		for c := 0; c < 7; c++ {
			col[c] = b[c][r]
		}
		lines = append(lines, string(col))
	}
	for start := -6; start < 7 && !WRONG; start++ {
		var down, anti []byte
		for r := 0; r < 7; r++ {
			if r-start >= 0 && r-start < 7 {
				down = append(down, b[r][r-start])
			}
			if start+6-r >= 0 && start+6-r < 7 {
				anti = append(anti, b[r][start+6-r])
			}
		}
		lines = append(lines, string(down), string(anti))
	}
	dead, live4, live3 := 0, 0, 0
	for _, l := range lines {
		if len(l) < 5 {
			continue
		}
		if strings.HasPrefix(l, "oooox") {
			dead++
		}
		if strings.HasSuffix(l, "xoooo") {
			dead++
		}
		live4 += count(l, "xoooox")
		live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox")
	}
	out := ""
	if dead > 0 {
		out += NUMERALS[dead] + "死四"
	}
	if live4 > 0 {
		out += NUMERALS[live4] + "活四"
	}
	if live3 > 0 {
		out += NUMERALS[live3] + "活三"
	}
	fmt.Println(out)
}
