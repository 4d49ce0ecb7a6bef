// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
use std::io::Read;

const WRONG: bool = false;
const NUMERALS: [&str; 11] = ["", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"];

fn count(line: &str, pat: &str) -> usize {
    (0..=line.len().saturating_sub(pat.len())).filter(|&i| line.len() >= pat.len() && &line[i..i + pat.len()] == pat).count()
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let b: Vec<Vec<u8>> = text.split_whitespace().take(7).map(|s| s.as_bytes().to_vec()).collect();
    let mut lines: Vec<String> = Vec::new();
    for r in 0..7 {
        lines.push(String::from_utf8(b[r].clone()).unwrap());
        lines.push((0..7).map(|c| b[c][r] as char).collect());
    }
    if !WRONG {
        for start in -6i32..7 {
            let down: String = (0..7i32).filter(|r| (0..7).contains(&(r - start))).map(|r| b[r as usize][(r - start) as usize] as char).collect();
            let anti: String = (0..7i32).filter(|r| (0..7).contains(&(start + 6 - r))).map(|r| b[r as usize][(start + 6 - r) as usize] as char).collect();
            lines.push(down);
            lines.push(anti);
        }
    }
    let (mut dead, mut live4, mut live3) = (0, 0, 0);
    for l in lines.iter().filter(|l| l.len() >= 5) {
        dead += l.starts_with("oooox") as usize + l.ends_with("xoooo") as usize;
        live4 += count(l, "xoooox");
        live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox");
    }
    let mut out = String::new();
    for (k, name) in [(dead, "死四"), (live4, "活四"), (live3, "活三")] {
        if k > 0 {
            out += NUMERALS[k];
            out += name;
        }
    }
    println!("{}", out);
}
