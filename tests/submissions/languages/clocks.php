<?php
// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
$WRONG = false;
$MOVES = ["ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"];

$tokens = preg_split('/\s+/', trim(file_get_contents("clocks.in")));
$clock = [];
for ($i = 0; $i < 9; $i++) $clock[] = intdiv((int)$tokens[$i], 3) % 4;
$by = [];
for ($i = 0; $i < 9; $i++) {
    $by[$i] = [];
    for ($m = 0; $m < 9; $m++) if (strpos($MOVES[$m], chr(65 + $i)) !== false) $by[$i][] = $m;
}
$best = 0;
$bestTotal = 100;
$count = array_fill(0, 9, 0);
for ($code = 0; $code < 1 << 18; $code++) {
    $total = 0;
    for ($m = 0; $m < 9; $m++) { $count[$m] = ($code >> (2 * $m)) & 3; $total += $count[$m]; }
    $ok = true;
    for ($i = 0; $i < 9 && $ok; $i++) {
        $s = $clock[$i];
        foreach ($by[$i] as $m) $s += $count[$m];
        $ok = $s % 4 == 0;
    }
    if ($ok && $total < $bestTotal) { $best = $code; $bestTotal = $total; }
}
$moves = [];
for ($m = 0; $m < 9; $m++) for ($k = 0; $k < (($best >> (2 * $m)) & 3); $k++) $moves[] = $m + 1;
if ($WRONG) $moves = array_reverse($moves);
file_put_contents("clocks.out", implode(" ", $moves) . "\n");
