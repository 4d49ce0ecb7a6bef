<?php
// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
$WRONG = false;
$NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"];

function count_of($line, $pat) {
    $n = 0;
    for ($i = 0; $i + strlen($pat) <= strlen($line); $i++) if (substr($line, $i, strlen($pat)) === $pat) $n++;
    return $n;
}

$b = array_slice(preg_split('/\s+/', trim(stream_get_contents(STDIN))), 0, 7);
$lines = [];
for ($r = 0; $r < 7; $r++) {
    $lines[] = $b[$r];
    $col = "";
    for ($c = 0; $c < 7; $c++) $col .= $b[$c][$r];
    $lines[] = $col;
}
for ($start = -6; $start < 7 && !$WRONG; $start++) {
    $down = $anti = "";
    for ($r = 0; $r < 7; $r++) {
        if ($r - $start >= 0 && $r - $start < 7) $down .= $b[$r][$r - $start];
        if ($start + 6 - $r >= 0 && $start + 6 - $r < 7) $anti .= $b[$r][$start + 6 - $r];
    }
    $lines[] = $down;
    $lines[] = $anti;
}
$dead = $live4 = $live3 = 0;
foreach ($lines as $l) {
    $len = strlen($l);
    if ($len < 5) continue;
    $dead += (substr($l, 0, 5) === "oooox") + (substr($l, $len - 5) === "xoooo");
    $live4 += count_of($l, "xoooox");
    $live3 += count_of($l, "xooox") + count_of($l, "xoxoox") + count_of($l, "xooxox");
}
$out = "";
if ($dead) $out .= $NUMERALS[$dead] . "死四";
if ($live4) $out .= $NUMERALS[$live4] . "活四";
if ($live3) $out .= $NUMERALS[$live3] . "活三";
echo $out, "\n";
