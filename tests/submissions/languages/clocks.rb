# Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
WRONG = false
MOVES = %w[ABDE ABC BCEF ADG BDEFH CFI DEGH GHI EFHI].freeze

clock = File.read("clocks.in").split.first(9).map { |t| t.to_i / 3 % 4 }
by = (0...9).map { |i| (0...9).select { |m| MOVES[m].include?((65 + i).chr) } }
best = 0
best_total = 100
count = Array.new(9, 0)
(1 << 18).times do |code|
  total = 0
  9.times { |m| total += (count[m] = (code >> (2 * m)) & 3) }
  ok = true
  i = 0
  while i < 9 && ok
    s = clock[i]
    by[i].each { |m| s += count[m] }
    ok = (s % 4).zero?
    i += 1
  end
  if ok && total < best_total
    best = code
    best_total = total
  end
end
moves = (0...9).flat_map { |m| [m + 1] * ((best >> (2 * m)) & 3) }
moves.reverse! if WRONG
File.write("clocks.out", moves.join(" ") + "\n")
