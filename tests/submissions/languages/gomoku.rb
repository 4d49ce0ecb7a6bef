# Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
WRONG = false
NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"].freeze

def count(line, pat)
  (0..line.size - pat.size).count { |i| line[i, pat.size] == pat }
end

b = $stdin.read.split.first(7)
lines = []
7.times do |r|
  lines << b[r]
  lines << (0...7).map { |c| b[c][r] }.join
end
unless WRONG
  (-6..6).each do |start|
    lines << (0...7).select { |r| (0...7).cover?(r - start) }.map { |r| b[r][r - start] }.join
    lines << (0...7).select { |r| (0...7).cover?(start + 6 - r) }.map { |r| b[r][start + 6 - r] }.join
  end
end
dead = live4 = live3 = 0
lines.select { |l| l.size >= 5 }.each do |l|
  dead += (l.start_with?("oooox") ? 1 : 0) + (l.end_with?("xoooo") ? 1 : 0)
  live4 += count(l, "xoooox")
  live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox")
end
out = ""
[[dead, "死四"], [live4, "活四"], [live3, "活三"]].each { |k, name| out += NUMERALS[k] + name if k > 0 }
$stdout.write(out + "\n")
