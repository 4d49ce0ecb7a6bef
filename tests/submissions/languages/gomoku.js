// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
const WRONG = false;
const NUMERALS = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"];

function count(line, pat) {
  let n = 0;
  for (let i = 0; i + pat.length <= line.length; i++) if (line.startsWith(pat, i)) n++;
  return n;
}

const b = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).slice(0, 7);
const lines = [];
for (let r = 0; r < 7; r++) {
  lines.push(b[r]);
  let col = "";
  for (let c = 0; c < 7; c++) col += b[c][r];
  lines.push(col);
}
for (let start = -6; start < 7 && !WRONG; start++) {
  let down = "", anti = "";
  for (let r = 0; r < 7; r++) {
    if (r - start >= 0 && r - start < 7) down += b[r][r - start];
    if (start + 6 - r >= 0 && start + 6 - r < 7) anti += b[r][start + 6 - r];
  }
  lines.push(down, anti);
}
let dead = 0, live4 = 0, live3 = 0;
for (const l of lines) {
  if (l.length < 5) continue;
  dead += l.startsWith("oooox") + l.endsWith("xoooo");
  live4 += count(l, "xoooox");
  live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox");
}
let out = "";
if (dead) out += NUMERALS[dead] + "死四";
if (live4) out += NUMERALS[live4] + "活四";
if (live3) out += NUMERALS[live3] + "活三";
process.stdout.write(out + "\n");
